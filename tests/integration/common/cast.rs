//! An asciicast v2 recording (`--record`) read back: every line parsed, the times in
//! order, and its output replayed into a vt100 screen of the header's size, resized where
//! the recording says the terminal was.

use std::path::Path;

use serde_json::Value;

pub(crate) struct Replay {
    /// The first line.
    pub header: Value,
    /// Every line after it: `[seconds, "o" or "r", data]`.
    pub events: Vec<Value>,
    /// The screen once every event is replayed.
    pub screen: vt100::Parser,
}

impl Replay {
    /// The data of every event of `kind` ("o" output, "r" resize).
    pub(crate) fn data(&self, kind: &str) -> Vec<&str> {
        self.events
            .iter()
            .filter(|e| e[1] == kind)
            .map(|e| e[2].as_str().unwrap())
            .collect()
    }

    /// Asserts that the recording started at `width` x `height` in a terminal that calls
    /// itself `term`, was resized to each of `resizes` ("WxH") and to nothing else, and
    /// replays to `last`, text, colours and attributes.
    pub(crate) fn assert_replays(
        &self,
        (width, height): (u16, u16),
        term: &str,
        resizes: &[&str],
        last: &vt100::Screen,
    ) {
        let header = &self.header;
        assert_eq!(
            (&header["width"], &header["height"]),
            (&width.into(), &height.into())
        );
        assert_eq!(header["env"]["TERM"], term, "{header}");
        assert_eq!(self.data("r"), resizes);
        let replayed = self.screen.screen();
        assert_eq!(replayed.size(), last.size());
        assert_eq!(replayed.contents(), last.contents());
        assert!(
            replayed.contents_formatted() == last.contents_formatted(),
            "the same text, other colours or attributes"
        );
    }
}

/// The recording at `path`, replayed.
pub(crate) fn replay(path: &Path) -> Replay {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        text.ends_with('\n'),
        "a cut last line in {}",
        path.display()
    );
    let mut lines = text
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{e}: {line}")));
    let header = lines.next().expect("a header line");
    assert_eq!(header["version"], 2, "{header}");
    let side = |key: &str| u16::try_from(header[key].as_u64().unwrap()).unwrap();
    let mut screen = vt100::Parser::new(side("height"), side("width"), 0);
    let events: Vec<Value> = lines.collect();
    let mut last = 0.0;
    for event in &events {
        let at = event[0].as_f64().unwrap();
        assert!(at >= last, "times go back: {last} then {event}");
        last = at;
        let data = event[2].as_str().unwrap();
        match event[1].as_str().unwrap() {
            "o" => screen.process(data.as_bytes()),
            "r" => {
                let (cols, rows) = data.split_once('x').unwrap();
                screen
                    .screen_mut()
                    .set_size(rows.parse().unwrap(), cols.parse().unwrap());
            }
            kind => panic!("an event of kind {kind:?}: {event}"),
        }
    }
    Replay {
        header,
        events,
        screen,
    }
}
