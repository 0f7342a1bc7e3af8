//! A progress bar on standard error, shared by `squillion export` (documents written) and
//! `squillion infer` (bytes of a file read): drawn on one line, redrawn only when its
//! shown tenth of a percent changes, so that it costs nothing when nothing moves.

use std::io::Write;

/// A progress bar on stderr, redrawn when the shown percentage changes.
pub struct Progress {
    /// Draw it (stderr is a terminal, or `--progress`).
    on: bool,
    /// The whole: documents to write, or bytes to read.
    total: u64,
    /// What `total` counts, after the figures ("documents", "bytes").
    unit: &'static str,
    /// The tenth of a percent drawn last.
    shown: Option<u64>,
}

impl Progress {
    /// Returns a bar out of `total` `unit`s, drawn only when `on`.
    pub fn new(on: bool, total: u64, unit: &'static str) -> Self {
        Progress {
            on,
            total,
            unit,
            shown: None,
        }
    }

    /// Shows `done` of the total, followed by `what` (what is under way).
    pub fn update(&mut self, done: u64, what: &str) {
        if !self.on {
            return;
        }
        let pct = (done.saturating_mul(1000) / self.total.max(1)).min(1000);
        if self.shown == Some(pct) {
            return;
        }
        self.shown = Some(pct);
        let filled = (pct / 25) as usize;
        let bar = format!("{}{}", "#".repeat(filled), ".".repeat(40 - filled.min(40)));
        let mut e = std::io::stderr().lock();
        let _ = write!(
            e,
            "\r[{bar}] {:>5.1}% {}/{} {} {what:<24}",
            pct as f64 / 10.0,
            done.min(self.total),
            self.total,
            self.unit
        );
        let _ = e.flush();
    }

    /// Ends the bar's line, if it was drawn.
    pub fn finish(&self) {
        if self.on && self.shown.is_some() {
            eprintln!();
        }
    }
}
