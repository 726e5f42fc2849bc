//! The signal handlers of a headless run (SIGINT, SIGTERM, SIGHUP), which ask the engine's
//! searches to stop through `anneal::interrupt`.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

use crate::search::interrupt::{exit_code, record};

/// Catches the interrupts for the rest of the process (headless runs only: the live view
/// has its own handling).
pub fn install() -> std::io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("kiln-interrupts".to_string())
        .spawn(move || {
            for signal in signals.forever() {
                if !record(signal) {
                    std::process::exit(i32::from(exit_code(signal)));
                }
            }
        })?;
    Ok(())
}
