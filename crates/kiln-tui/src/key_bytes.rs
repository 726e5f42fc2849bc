//! Keystrokes from the bytes a terminal sends (the local one, or an SSH client's), parsed by
//! termwiz as crossterm key events, so one key table ([`crate::keys`]) serves both. What
//! the bytes cannot make into a key is held only briefly: an unfinished paste or a stray
//! byte never holds the keys after it.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use termwiz::input::{InputEvent, InputParser, KeyCode as Code, Modifiers};

/// Bytes a client may send without making a key (an unfinished paste, say) before what
/// it sent is thrown away: the parser holds them, and they must stay few (no key kiln reads
/// is longer than 16 bytes, and pasted text is nothing to it).
const MAX_PENDING: usize = 256;
/// The parser is given at most this many bytes at a time: it looks ahead through all it
/// holds at each ESC, so what it holds is kept short.
const CHUNK: usize = 64;
const ESC: u8 = 0x1b;
/// The bytes that start and end a bracketed paste. kiln reads no pasted text (and never
/// asks a terminal to bracket pastes), and a parser that saw a start would hold every key
/// until an end that may never come, so both are left out of what the parser is given.
const PASTE_MARKS: [&[u8]; 2] = [b"\x1b[200~", b"\x1b[201~"];

/// A client's input is read at a person's pace, and the rest dropped unread: at most
/// `BYTES` a second (with as many at once), of which at most `KEYS` a second become keys.
/// Held-down keys repeat 25-30 times a second, each a few bytes, so a person never
/// reaches either; a flood costs the server no more than these, whatever it sends.
const BYTES: f64 = 1024.0;
const KEYS: f64 = 40.0;

/// How long a lone ESC, or the start of a sequence, waits for the rest before it is read
/// as it stands. A terminal sends a key's sequence in one write, but a slow link may cut
/// it in two (ESC, then `[C` 150 ms later); terminals and editors hold a lone ESC the
/// same way (tmux 500 ms, vim 100 ms).
pub const HOLD: Duration = Duration::from_millis(300);

/// A rate with a burst as large: what may be spent now, refilled as time passes.
struct Budget {
    per_second: f64,
    left: f64,
    at: Option<Instant>,
}

impl Budget {
    fn new(per_second: f64) -> Budget {
        Budget {
            per_second,
            left: per_second,
            at: None,
        }
    }

    /// Up to `want` of what is left at `now`, spent.
    fn spend(&mut self, want: usize, now: Instant) -> usize {
        if let Some(at) = self.at {
            let refill = now.saturating_duration_since(at).as_secs_f64() * self.per_second;
            self.left = (self.left + refill).min(self.per_second);
        }
        self.at = Some(now);
        let spent = (want as f64).min(self.left.floor());
        self.left -= spent;
        spent as usize
    }

    /// How long after `now` until a tenth of the burst is back, if less is left.
    fn wait(&self, now: Instant) -> Option<Duration> {
        let since = self
            .at
            .map_or(0.0, |at| now.saturating_duration_since(at).as_secs_f64());
        let short = self.per_second / 10.0 - self.left - since * self.per_second;
        (short > 0.0).then(|| Duration::from_secs_f64(short / self.per_second))
    }
}

/// Bytes from one terminal in, keys out.
pub struct Keys {
    parser: InputParser,
    /// The start of a UTF-8 character whose end is in the next packet.
    carry: Vec<u8>,
    /// Bytes given to the parser since it last made a key.
    pending: usize,
    /// When bytes last came: the parser may hold the start of a key until `HOLD` after.
    fed: Option<Instant>,
    /// Whether the last byte given to the parser, still held, was an ESC.
    after_esc: bool,
    /// The end of the bytes so far, kept from the parser while it may be the start of a
    /// paste mark (an ESC, then `[2`, ...); given to it once it is not, or when the hold
    /// is over.
    mark: Vec<u8>,
    bytes: Budget,
    keys: Budget,
}

impl Default for Keys {
    fn default() -> Keys {
        Keys::new()
    }
}

impl Keys {
    /// A parser for a terminal that has sent nothing yet.
    pub fn new() -> Keys {
        Keys {
            parser: InputParser::new(),
            carry: Vec::new(),
            pending: 0,
            fed: None,
            after_esc: false,
            mark: Vec::new(),
            bytes: Budget::new(BYTES),
            keys: Budget::new(KEYS),
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

    /// The keys `bytes`, arriving at `now`, complete, within the client's budget (bytes past
    /// it are dropped unread). What may be the start of a longer key (a lone ESC at the end
    /// of a packet) is held for the next packet, or until `expire` gives up on it.
    pub fn feed(&mut self, bytes: &[u8], now: Instant) -> Vec<KeyEvent> {
        let read = self.bytes.spend(bytes.len(), now);
        let bytes = self.utf8(&bytes[..read]);
        let bytes = self.one_esc(bytes);
        let bytes = self.no_paste_marks(bytes);
        self.fed = Some(now);
        let mut keys = Vec::new();
        for chunk in bytes.chunks(CHUNK) {
            keys.extend(self.parse(chunk, true));
        }
        keys.truncate(self.keys.spend(keys.len(), now));
        keys
    }

    /// How long to stop reading this client, if it has spent its budget: a flood is then
    /// held back by TCP on the client's side, not read and dropped here.
    pub fn throttle(&self, now: Instant) -> Option<Duration> {
        self.bytes.wait(now)
    }

    /// `bytes` with every ESC that follows an ESC left out: two are never a key kiln reads
    /// (at most Alt-Esc), and a run of them costs termwiz a look ahead each.
    fn one_esc(&mut self, mut bytes: Vec<u8>) -> Vec<u8> {
        let mut after_esc = self.after_esc;
        bytes.retain(|&b| {
            let keep = !(b == ESC && after_esc);
            after_esc = b == ESC;
            keep
        });
        if !bytes.is_empty() {
            self.after_esc = after_esc;
        }
        bytes
    }

    /// `bytes` with every paste mark left out, the start of one at the end kept back in
    /// `mark` for the next bytes. A mark has one ESC, at its start (and `one_esc` has
    /// left no two together), so a byte that does not go on with the mark ends it, and
    /// only an ESC can begin the next.
    fn no_paste_marks(&mut self, bytes: Vec<u8>) -> Vec<u8> {
        let mut out = Vec::with_capacity(bytes.len() + self.mark.len());
        for b in bytes {
            self.mark.push(b);
            let mark = self.mark.as_slice();
            if PASTE_MARKS.contains(&mark) {
                self.mark.clear();
            } else if !PASTE_MARKS.iter().any(|m| m.starts_with(mark)) {
                let last = self.mark.pop();
                out.append(&mut self.mark);
                match last {
                    Some(ESC) => self.mark.push(ESC),
                    Some(b) => out.push(b),
                    None => {}
                }
            }
        }
        out
    }

    /// The keys held since a packet that came `HOLD` or more before `now`, read as they
    /// stand (a lone ESC is Esc) now that the rest did not come.
    pub fn expire(&mut self, now: Instant) -> Vec<KeyEvent> {
        match self.fed {
            Some(fed) if now.saturating_duration_since(fed) >= HOLD => {
                self.fed = None;
                self.after_esc = false;
                let held = std::mem::take(&mut self.mark);
                let mut keys = self.parse(&held, false);
                keys.truncate(self.keys.spend(keys.len(), now));
                keys
            }
            _ => Vec::new(),
        }
    }

    /// When `expire` will read what the parser may hold, if it may hold anything.
    pub fn deadline(&self) -> Option<Instant> {
        self.fed.map(|fed| fed + HOLD)
    }

    fn parse(&mut self, bytes: &[u8], maybe_more: bool) -> Vec<KeyEvent> {
        let mut keys = Vec::new();
        let mut events = 0;
        self.parser.parse(
            bytes,
            |event| {
                events += 1;
                if let InputEvent::Key(key) = event
                    && let Some(key) = crossterm_key(key.key, key.modifiers)
                {
                    keys.push(key);
                }
            },
            maybe_more,
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
    use crate::keys::{Action, action};

    /// The actions `packets` make, each packet a moment after the last (well within
    /// `HOLD`), and what is held read after a pause.
    fn actions_of(packets: &[&[u8]]) -> Vec<Action> {
        let mut keys = Keys::new();
        let mut now = Instant::now();
        let mut got = Vec::new();
        for packet in packets {
            got.extend(keys.feed(packet, now));
            now += Duration::from_millis(1);
        }
        got.extend(keys.expire(now + HOLD));
        got.into_iter().filter_map(action).collect()
    }

    fn actions(bytes: &[u8]) -> Vec<Action> {
        actions_of(&[bytes])
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
    fn a_key_split_across_packets_is_one_key() {
        let cases: [(&[&[u8]], &[Action]); 4] = [
            (&[b"\x1b", b"[C"], &[Action::NextPuzzle]),
            (&[b"\x1b[", b"C"], &[Action::NextPuzzle]),
            (&[b"\x1b", b"[", b"1;2", b"D"], &[Action::PreviousPuzzle]),
            (
                &[b" \x1b", b"[D"],
                &[Action::TogglePause, Action::PreviousPuzzle],
            ),
        ];
        for (packets, expected) in cases {
            assert_eq!(actions_of(packets), expected, "{packets:?}");
        }
        // Held, not lost: 150 ms between the halves, as on a slow link.
        let mut keys = Keys::new();
        let start = Instant::now();
        assert!(keys.feed(b"\x1b", start).is_empty());
        assert!(keys.expire(start + HOLD / 2).is_empty());
        let later = start + Duration::from_millis(150);
        let got: Vec<Action> = keys
            .feed(b"[C", later)
            .into_iter()
            .filter_map(action)
            .collect();
        assert_eq!(got, [Action::NextPuzzle]);
        assert!(keys.expire(later + HOLD).is_empty());
    }

    #[test]
    fn a_lone_esc_is_read_once_the_hold_is_over() {
        let mut keys = Keys::new();
        let start = Instant::now();
        assert!(keys.feed(b"\x1b", start).is_empty());
        assert_eq!(keys.deadline(), Some(start + HOLD));
        assert!(
            keys.expire(start + HOLD - Duration::from_millis(1))
                .is_empty()
        );
        let esc = keys.expire(start + HOLD);
        assert_eq!(esc, [KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)]);
        assert_eq!(keys.deadline(), None);
    }

    #[test]
    fn a_sequence_cut_short_costs_only_itself() {
        let got = actions_of(&[b"\x1b[1;5", b"\x1b[", b" "]);
        assert!(got.ends_with(&[Action::TogglePause]), "{got:?}");
    }

    #[test]
    fn bytes_that_are_not_utf8_do_not_hold_the_keys_after_them() {
        assert_eq!(actions(b"\xff\xfe?"), [Action::Help]);
        // A character cut between packets arrives whole.
        let mut keys = Keys::new();
        let now = Instant::now();
        assert!(keys.feed(b"\xc3", now).is_empty());
        assert_eq!(keys.feed(b"\xa9", now).len(), 1);
    }

    #[test]
    fn an_endless_paste_is_not_kept_and_keys_after_it_work() {
        let mut keys = Keys::new();
        let mut now = Instant::now();
        keys.feed(b"\x1b[200~", now);
        for _ in 0..10 {
            // A second apart: within the client's budget.
            now += Duration::from_secs(1);
            keys.feed(&[b'x'; 1000], now);
            assert!(keys.pending <= MAX_PENDING);
        }
        // Each 1000 bytes made hundreds of keys: the next second's budget takes this one.
        let after: Vec<Action> = keys
            .feed(b"?", now + Duration::from_secs(1))
            .into_iter()
            .filter_map(action)
            .collect();
        assert_eq!(after.last(), Some(&Action::Help), "{} actions", after.len());
    }

    #[test]
    fn a_paste_mark_is_no_key_and_holds_none_after_it() {
        assert_eq!(actions(b"\x1b[200~q"), [Action::Quit]);
        assert_eq!(actions_of(&[b"\x1b[200~", b"\x03"]), [Action::QuitNow]);
        assert_eq!(
            actions_of(&[b"\x1b[20", b"0~ ?", b"\x1b[201~"]),
            [Action::TogglePause, Action::Help]
        );
        // What only starts like a mark is read as it stands.
        assert_eq!(actions(b"\x1b[2~?"), [Action::Help]);
        assert_eq!(actions_of(&[b"\x1b[", b"C"]), [Action::NextPuzzle]);
        // The start of a mark, and nothing after it: the parser is given it once the hold
        // is over, and the next key is read.
        let mut keys = Keys::new();
        let start = Instant::now();
        assert!(keys.feed(b"\x1b[20", start).is_empty());
        keys.expire(start + HOLD);
        let later = start + HOLD * 2;
        let got: Vec<Action> = keys
            .feed(b"?", later)
            .into_iter()
            .filter_map(action)
            .collect();
        assert_eq!(got, [Action::Help]);
    }

    #[test]
    fn a_run_of_escs_is_one_esc() {
        assert_eq!(actions(&[ESC; 100]), [Action::Quit]);
        assert_eq!(
            actions_of(&[b"\x1b\x1b", b"\x1b", b"\x1b[C"]),
            [Action::NextPuzzle]
        );
        // Two Escs pressed a moment apart are two.
        let mut keys = Keys::new();
        let start = Instant::now();
        keys.feed(b"\x1b", start);
        assert_eq!(keys.expire(start + HOLD).len(), 1);
        keys.feed(b"\x1b", start + HOLD * 2);
        assert_eq!(keys.expire(start + HOLD * 3).len(), 1);
    }

    #[test]
    fn a_flood_is_read_at_a_persons_pace_and_the_rest_dropped() {
        let mut keys = Keys::new();
        let start = Instant::now();
        let mut got = 0;
        // Ten seconds of 1 MB a second, in 32 KB packets: ESCs and arrow keys.
        for n in 0..320u32 {
            let now = start + Duration::from_millis(u64::from(n) * 31);
            let packet: Vec<u8> = b"\x1b[C\x1b"
                .iter()
                .copied()
                .cycle()
                .take(32 * 1024)
                .collect();
            got += keys.feed(&packet, now).len();
            assert!(keys.throttle(now).is_some());
        }
        // At most a burst and ten seconds' worth of keys came through, of 1.3 M in the flood.
        assert!(got > 0 && got as f64 <= KEYS * 11.0, "{got} keys");
        assert!(keys.pending <= MAX_PENDING);
        // Once the flood stops, keys work again.
        let later = start + Duration::from_secs(12);
        keys.expire(later);
        assert!(keys.throttle(later).is_none());
        let after: Vec<Action> = keys
            .feed(b"?", later)
            .into_iter()
            .filter_map(action)
            .collect();
        assert_eq!(after, [Action::Help]);
    }

    proptest::proptest! {
        /// Whatever a client sends, in whatever pieces and at whatever pace, the parser
        /// takes it without a panic, holds at most `MAX_PENDING` bytes, and a key after a
        /// pause (which reads whatever was held) still arrives.
        #[test]
        fn any_bytes_are_taken_and_keys_after_them_still_work(
            packets in proptest::collection::vec(
                (proptest::collection::vec(proptest::num::u8::ANY, 0..24), 0..400u64),
                0..24,
            )
        ) {
            let mut keys = Keys::new();
            let mut now = Instant::now();
            for (packet, gap) in &packets {
                now += Duration::from_millis(*gap);
                keys.expire(now);
                keys.feed(packet, now);
                proptest::prop_assert!(keys.pending <= MAX_PENDING);
            }
            now += HOLD;
            keys.expire(now);
            // An Esc ends a paste left open, as a terminal's own paste end would.
            keys.feed(b"\x1b[201~", now);
            now += HOLD;
            keys.expire(now);
            let after: Vec<Action> = keys.feed(b"?", now).into_iter().filter_map(action).collect();
            proptest::prop_assert!(after.ends_with(&[Action::Help]), "{:?}", after);
        }
    }
}
