//! The live view's key handling, fed random key sequences and screen sizes: whatever is
//! pressed, in whatever order and at whatever size, nothing panics and every frame draws.

use proptest::prelude::*;
use ratatui::layout::Rect;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use kiln::search::worker::Speed;
use kiln_tui::{App, Flow, Theme, Tui, keys};

use kiln_tui::drawn;

/// Every key the view knows but `e`, and some it does not. (`e` saves into the process's
/// directory, which every test of this crate shares; the pty tests press it.)
fn key() -> impl Strategy<Value = KeyEvent> {
    let codes = prop_oneof![
        prop::sample::select(vec![
            ' ', 's', 'r', '+', '-', '=', '_', 'n', 'p', 'R', 'a', '?', 'h', 'b', 'o', 'i', 'x',
            'q',
        ])
        .prop_map(KeyCode::Char),
        Just(KeyCode::Tab),
        Just(KeyCode::BackTab),
        Just(KeyCode::Left),
        Just(KeyCode::Right),
        Just(KeyCode::Esc),
        Just(KeyCode::F(1)),
        Just(KeyCode::Up),
    ];
    let modifiers = prop_oneof![
        8 => Just(KeyModifiers::NONE),
        1 => Just(KeyModifiers::SHIFT),
        1 => Just(KeyModifiers::CONTROL),
    ];
    (codes, modifiers).prop_map(|(code, modifiers)| KeyEvent::new(code, modifiers))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn any_keys_at_any_size(
        presses in prop::collection::vec(key(), 1..40),
        sizes in prop::collection::vec((1u16..220, 1u16..70), 1..4),
    ) {
        let startup = kiln::problems::demos::bare();
        let mut app = App::new(
            startup.demos,
            0,
            0,
            Some(Speed::Limited(100_000)),
            Theme::colour(false),
            Rect::new(0, 0, 80, 24),
            true,
        )
        .unwrap();
        for (i, press) in presses.into_iter().enumerate() {
            let (width, height) = sizes[i % sizes.len()];
            app.resize(Rect::new(0, 0, width, height));
            if let Some(action) = keys::action(press)
                && app.on_action(action) == Flow::Quit
            {
                break;
            }
            app.poll();
            drawn(&app, width, height);
        }
    }
}
