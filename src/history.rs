//! Undo and redo over the text of a model: every way the playground changes the model (a form
//! edit, typing in the JSON, a preset, an import, a shared link) records the text it replaced,
//! so nothing the user wrote is lost without a way back.
//!
//! Typing is recorded in bursts: keystrokes less than [`History::TYPING_BURST_MS`] apart are
//! one step, so Ctrl+Z undoes a word or a line rather than one character.

/// What changed the model (the undo button says what it would undo).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Typing in the JSON text (coalesced into bursts).
    Typing,
    /// A form edit.
    Form,
    /// A preset or the blank model was opened.
    Preset,
    /// A model file was imported.
    Import,
    /// A shared link was opened.
    Link,
    /// The work a preset or a link replaced was restored.
    Restore,
}

impl Change {
    /// A short description for the undo/redo buttons ("the preset").
    pub fn describe(self) -> &'static str {
        match self {
            Change::Typing => "typing",
            Change::Form => "form edit",
            Change::Preset => "opening the preset",
            Change::Import => "import",
            Change::Link => "opening the link",
            Change::Restore => "restore",
        }
    }
}

/// The texts before and after the current one, with what changed each.
#[derive(Debug, Clone, PartialEq)]
pub struct History {
    /// Earlier texts, oldest first, each with the change that replaced it.
    past: Vec<(String, Change)>,
    /// The current text.
    present: String,
    /// Undone texts, the next redo last, each with the change that produced it.
    future: Vec<(String, Change)>,
    /// The last change recorded and when the page took it in (milliseconds), for coalescing
    /// typing.
    last: Option<(Change, f64)>,
}

impl History {
    /// At most this many steps are kept (the oldest go first).
    pub const LIMIT: usize = 200;
    /// Keystrokes closer together than this (milliseconds) are one undo step.
    pub const TYPING_BURST_MS: f64 = 1000.0;

    /// Returns a history whose current text is `text`, with nothing to undo or redo.
    pub fn new(text: impl Into<String>) -> Self {
        History {
            past: Vec::new(),
            present: text.into(),
            future: Vec::new(),
            last: None,
        }
    }

    /// Returns the current text.
    pub fn current(&self) -> &str {
        &self.present
    }

    /// Records `text` as the new current text, changed by `change` at `now_ms` (a change the
    /// page takes in as it is made). Returns false (and records nothing) when the text is
    /// unchanged.
    pub fn record(&mut self, text: impl Into<String>, change: Change, now_ms: f64) -> bool {
        self.record_pressed(text, change, now_ms, now_ms)
    }

    /// Records `text`, changed by `change`: made by the user at `pressed_ms` (a keystroke's own
    /// time) and taken in by the page at `done_ms`. Typing pressed less than
    /// [`History::TYPING_BURST_MS`] after the page took the previous keystroke in extends that
    /// step instead of adding one. The pause is measured from when the previous keystroke was
    /// taken in, not from when it was pressed: while the page is busy (an analysis on a slow
    /// machine) a key waits, and the time it waits is the page's, not a pause of the user's; a
    /// key typed ahead, pressed before the previous one was taken in, is in the burst too.
    /// Returns false (and records nothing) when the text is unchanged.
    pub fn record_pressed(
        &mut self,
        text: impl Into<String>,
        change: Change,
        pressed_ms: f64,
        done_ms: f64,
    ) -> bool {
        let text = text.into();
        if text == self.present {
            return false;
        }
        let coalesce = change == Change::Typing
            && self.future.is_empty()
            && matches!(self.last, Some((Change::Typing, done)) if pressed_ms - done < Self::TYPING_BURST_MS)
            && !self.past.is_empty();
        if !coalesce {
            let before = std::mem::take(&mut self.present);
            self.past.push((before, change));
            if self.past.len() > Self::LIMIT {
                self.past.remove(0);
            }
        }
        self.present = text;
        self.future.clear();
        self.last = Some((change, done_ms));
        true
    }

    /// Goes back one step; returns the text now current, or `None` when there is nothing to undo.
    pub fn undo(&mut self) -> Option<&str> {
        let (text, change) = self.past.pop()?;
        let undone = std::mem::replace(&mut self.present, text);
        self.future.push((undone, change));
        self.last = None;
        Some(&self.present)
    }

    /// Goes forward one step; returns the text now current, or `None` when there is nothing to redo.
    pub fn redo(&mut self) -> Option<&str> {
        let (text, change) = self.future.pop()?;
        let before = std::mem::replace(&mut self.present, text);
        self.past.push((before, change));
        self.last = None;
        Some(&self.present)
    }

    /// Returns the change an undo would revert, if any.
    pub fn undoable(&self) -> Option<Change> {
        self.past.last().map(|(_, c)| *c)
    }

    /// Returns the change a redo would re-apply, if any.
    pub fn redoable(&self) -> Option<Change> {
        self.future.last().map(|(_, c)| *c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_and_redo_walk_the_steps() {
        let mut h = History::new("a");
        assert!(h.record("b", Change::Form, 0.0));
        assert!(h.record("c", Change::Preset, 10.0));
        assert_eq!(h.undoable(), Some(Change::Preset));
        assert_eq!(h.undo(), Some("b"));
        assert_eq!(h.undo(), Some("a"));
        assert_eq!(h.undo(), None);
        assert_eq!(h.current(), "a");
        assert_eq!(h.redoable(), Some(Change::Form));
        assert_eq!(h.redo(), Some("b"));
        assert_eq!(h.redo(), Some("c"));
        assert_eq!(h.redo(), None);
    }

    #[test]
    fn typing_bursts_are_one_step() {
        let mut h = History::new("");
        h.record("{", Change::Typing, 0.0);
        h.record("{}", Change::Typing, 300.0);
        h.record("{} ", Change::Typing, 600.0);
        // A pause starts a new step.
        h.record("{} x", Change::Typing, 5000.0);
        assert_eq!(h.undo(), Some("{} "));
        assert_eq!(h.undo(), Some(""));
        assert_eq!(h.undo(), None);
    }

    #[test]
    fn a_key_that_waited_for_the_busy_page_stays_in_its_burst() {
        let mut h = History::new("");
        h.record_pressed("{", Change::Typing, 0.0, 5.0);
        // Pressed 30 ms after the first was taken in; the page was busy and took it 1.5 s later.
        h.record_pressed("{}", Change::Typing, 35.0, 1535.0);
        // Pressed when the page answered the previous key (a test driver waits for that).
        h.record_pressed("{} ", Change::Typing, 1600.0, 1605.0);
        // Typed ahead: pressed before the previous key was taken in.
        h.record_pressed("{} x", Change::Typing, 1590.0, 1610.0);
        assert_eq!(h.undo(), Some(""));
        // A pause of the user's, the page idle: a new step.
        let mut h = History::new("");
        h.record_pressed("a", Change::Typing, 0.0, 5.0);
        h.record_pressed("ab", Change::Typing, 1200.0, 1205.0);
        assert_eq!(h.undo(), Some("a"));
    }

    #[test]
    fn typing_after_a_form_edit_is_its_own_step() {
        let mut h = History::new("a");
        h.record("ab", Change::Typing, 0.0);
        h.record("abc", Change::Form, 100.0);
        h.record("abcd", Change::Typing, 200.0);
        h.record("abcde", Change::Typing, 300.0);
        assert_eq!(h.undo(), Some("abc"));
        assert_eq!(h.undo(), Some("ab"));
    }

    #[test]
    fn a_new_change_drops_the_redo_steps_and_unchanged_text_records_nothing() {
        let mut h = History::new("a");
        h.record("b", Change::Form, 0.0);
        h.undo();
        assert!(!h.record("a", Change::Form, 1.0));
        assert_eq!(h.redoable(), Some(Change::Form));
        h.record("c", Change::Import, 2.0);
        assert_eq!(h.redo(), None);
        assert_eq!(h.undo(), Some("a"));
    }

    #[test]
    fn typing_after_an_undo_does_not_merge_into_the_undone_step() {
        let mut h = History::new("a");
        h.record("ab", Change::Typing, 0.0);
        h.undo();
        h.record("ax", Change::Typing, 10.0);
        assert_eq!(h.undo(), Some("a"));
    }

    #[test]
    fn the_oldest_steps_go_past_the_limit() {
        let mut h = History::new("0");
        for i in 1..=History::LIMIT + 5 {
            h.record(i.to_string(), Change::Form, i as f64);
        }
        let mut n = 0;
        while h.undo().is_some() {
            n += 1;
        }
        assert_eq!(n, History::LIMIT);
        assert_eq!(h.current(), "5");
    }
}
