//! A client's keystrokes: the bytes its terminal sends, parsed by termwiz, as the crossterm
//! key events the local view gets, so one key table (`ui::keys`) serves both.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use termwiz::input::{InputEvent, InputParser, KeyCode as Code, Modifiers};

/// Bytes a client may send without making a key (an unfinished paste, say) before what
/// it sent is thrown away: the parser holds them, and they must stay few.
const MAX_PENDING: usize = 4096;

/// Bytes from one client in, keys out.
pub(super) struct Keys {
    parser: InputParser,
    /// The start of a UTF-8 character whose end is in the next packet.
    carry: Vec<u8>,
    /// Bytes given to the parser since it last made a key.
    pending: usize,
}

impl Keys {
    pub(super) fn new() -> Keys {
        Keys {
            parser: InputParser::new(),
            carry: Vec::new(),
            pending: 0,
        }
    }

    /// `bytes` with what is not UTF-8 left out. termwiz waits for the end of a character
    /// that cannot end (a stray 0xff), holding every key after it, so such bytes never
    /// reach it; a character cut at the end of a packet waits for the next.
    fn utf8(&mut self, bytes: &[u8]) -> Vec<u8> {
        let mut input = std::mem::take(&mut self.carry);
        input.extend_from_slice(bytes);
        let mut clean = Vec::with_capacity(input.len());
        let mut rest = &input[..];
        while let Err(e) = std::str::from_utf8(rest) {
            let (valid, after) = rest.split_at(e.valid_up_to());
            clean.extend_from_slice(valid);
            match e.error_len() {
                Some(bad) => rest = &after[bad..],
                None => {
                    self.carry = after.to_vec();
                    rest = &[];
                }
            }
        }
        clean.extend_from_slice(rest);
        clean
    }

    /// The keys `bytes` complete. A lone Esc at the end of a packet is a key press, not the
    /// start of a sequence: a terminal sends a sequence in one write.
    pub(super) fn feed(&mut self, bytes: &[u8]) -> Vec<KeyEvent> {
        let bytes = self.utf8(bytes);
        let mut keys = Vec::new();
        let mut events = 0;
        self.parser.parse(
            &bytes,
            |event| {
                events += 1;
                if let InputEvent::Key(key) = event
                    && let Some(key) = crossterm_key(key.key, key.modifiers)
                {
                    keys.push(key);
                }
            },
            false,
        );
        self.pending = if events > 0 {
            0
        } else {
            self.pending + bytes.len()
        };
        if self.pending > MAX_PENDING {
            self.parser = InputParser::new();
            self.pending = 0;
        }
        keys
    }
}

fn modifiers(mods: Modifiers) -> KeyModifiers {
    let mut out = KeyModifiers::NONE;
    if mods.contains(Modifiers::SHIFT) {
        out |= KeyModifiers::SHIFT;
    }
    if mods.contains(Modifiers::ALT) {
        out |= KeyModifiers::ALT;
    }
    if mods.contains(Modifiers::CTRL) {
        out |= KeyModifiers::CONTROL;
    }
    out
}

/// The crossterm key for a termwiz one; keys the view has no use for are `None`.
fn crossterm_key(code: Code, mods: Modifiers) -> Option<KeyEvent> {
    let mut mods = modifiers(mods);
    let code = match code {
        Code::Tab if mods.contains(KeyModifiers::SHIFT) => {
            mods.remove(KeyModifiers::SHIFT);
            KeyCode::BackTab
        }
        Code::Tab => KeyCode::Tab,
        Code::Enter => KeyCode::Enter,
        Code::Escape => KeyCode::Esc,
        Code::Backspace => KeyCode::Backspace,
        // Other control characters are Ctrl with a letter (0x03 is Ctrl-C).
        Code::Char(c @ '\u{1}'..='\u{1a}') => {
            mods |= KeyModifiers::CONTROL;
            KeyCode::Char(char::from(c as u8 + b'a' - 1))
        }
        Code::Char(c) if c.is_control() => return None,
        Code::Char(c) => KeyCode::Char(c),
        Code::LeftArrow | Code::ApplicationLeftArrow => KeyCode::Left,
        Code::RightArrow | Code::ApplicationRightArrow => KeyCode::Right,
        Code::UpArrow | Code::ApplicationUpArrow => KeyCode::Up,
        Code::DownArrow | Code::ApplicationDownArrow => KeyCode::Down,
        Code::Function(n) => KeyCode::F(n),
        _ => return None,
    };
    Some(KeyEvent::new(code, mods))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::keys::{Action, action};

    fn actions(bytes: &[u8]) -> Vec<Action> {
        Keys::new()
            .feed(bytes)
            .into_iter()
            .filter_map(action)
            .collect()
    }

    #[test]
    fn plain_keys_map_as_in_the_local_view() {
        assert_eq!(
            actions(b" ?\tq"),
            [
                Action::TogglePause,
                Action::Help,
                Action::NextDemo,
                Action::Quit
            ]
        );
        assert_eq!(actions(b"\x03"), [Action::QuitNow]);
        assert_eq!(actions(b"\x04"), [Action::QuitNow]);
    }

    #[test]
    fn escape_sequences_are_keys() {
        assert_eq!(actions(b"\x1b[Z"), [Action::PreviousDemo]);
        assert_eq!(
            actions(b"\x1b[C\x1bOD"),
            [Action::NextPuzzle, Action::PreviousPuzzle]
        );
        assert_eq!(actions(b"\x1bOP"), [Action::Help]);
        assert_eq!(actions(b"\x1b"), [Action::Quit]);
    }

    #[test]
    fn a_sequence_cut_short_costs_only_itself() {
        let mut keys = Keys::new();
        let mut got: Vec<Action> = Vec::new();
        for part in [&b"\x1b[1;5"[..], b"\x1b[", b" "] {
            got.extend(keys.feed(part).into_iter().filter_map(action));
        }
        assert!(got.ends_with(&[Action::TogglePause]), "{got:?}");
    }

    #[test]
    fn bytes_that_are_not_utf8_do_not_hold_the_keys_after_them() {
        assert_eq!(actions(b"\xff\xfe?"), [Action::Help]);
        // A character cut between packets arrives whole.
        let mut keys = Keys::new();
        assert!(keys.feed(b"\xc3").is_empty());
        assert_eq!(keys.feed(b"\xa9").len(), 1);
    }

    #[test]
    fn an_endless_paste_is_thrown_away_not_kept() {
        let mut keys = Keys::new();
        keys.feed(b"\x1b[200~");
        for _ in 0..10 {
            keys.feed(&[b'x'; 1000]);
        }
        let after: Vec<Action> = keys.feed(b"?").into_iter().filter_map(action).collect();
        assert_eq!(after, [Action::Help]);
    }

    proptest::proptest! {
        /// Whatever a client sends, in whatever pieces, the parser takes it without a
        /// panic, and a key after a pause (a new packet after an Esc, which ends any
        /// sequence left open) still arrives.
        #[test]
        fn any_bytes_are_taken_and_keys_after_them_still_work(
            packets in proptest::collection::vec(
                proptest::collection::vec(proptest::num::u8::ANY, 0..24),
                0..24,
            )
        ) {
            let mut keys = Keys::new();
            for packet in &packets {
                keys.feed(packet);
            }
            keys.feed(b"\x1b\x1b");
            let after: Vec<Action> = keys.feed(b"?").into_iter().filter_map(action).collect();
            proptest::prop_assert!(after.ends_with(&[Action::Help]), "{:?}", after);
        }
    }
}
