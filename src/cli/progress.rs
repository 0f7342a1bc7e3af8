//! A progress bar on standard error, shared by `squillion export` (documents written) and
//! `squillion infer` (bytes of a file read): drawn on one line, redrawn only when its
//! shown tenth of a percent changes, so that it costs nothing when nothing moves.

use std::io::Write;

use crate::human::binary_size;

/// Returns `n` bytes as a bar shows them: below 1 MiB exact (`700 B`, `12.5 KiB`), above in
/// MiB or GiB with one or two decimals, so that the figure moves steadily.
fn short_size(n: u64) -> String {
    const MIB: f64 = 1024.0 * 1024.0;
    match n {
        0..=0xF_FFFF => binary_size(n),
        0x10_0000..=0x3FFF_FFFF => format!("{:.1} MiB", n as f64 / MIB),
        _ => format!("{:.2} GiB", n as f64 / MIB / 1024.0),
    }
}

/// What a [`Progress`] counts, and so how its figures are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Documents: "1234/5000 documents".
    Documents,
    /// Bytes: "1.5 MiB/35.0 MiB" (binary units).
    Bytes,
}

/// A progress bar on stderr, redrawn when the shown percentage changes.
pub struct Progress {
    /// Draw it (stderr is a terminal, or `--progress`).
    on: bool,
    /// The whole: documents to write, or bytes to read.
    total: u64,
    /// What `total` counts.
    unit: Unit,
    /// The tenth of a percent drawn last.
    shown: Option<u64>,
}

impl Progress {
    /// Returns a bar out of `total` `unit`s, drawn only when `on`.
    pub fn new(on: bool, total: u64, unit: Unit) -> Self {
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
        let done = done.min(self.total);
        let figures = match self.unit {
            Unit::Documents => format!("{done}/{} documents", self.total),
            Unit::Bytes => format!("{}/{}", short_size(done), short_size(self.total)),
        };
        let _ = write!(
            e,
            "\r[{bar}] {:>5.1}% {figures} {what:<24}",
            pct as f64 / 10.0
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
