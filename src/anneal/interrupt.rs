//! Interrupts of a headless run: the first SIGINT, SIGTERM or SIGHUP asks every search to
//! stop at its next budget check (a batch, well under 0.2 s), so the best state so far is
//! printed as a normal result; a second one ends the process at once.

use std::sync::atomic::{AtomicI32, Ordering};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The signal that asked for the stop, 0 for none.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The signal that interrupted the run, if one did.
pub fn requested() -> Option<i32> {
    match SIGNAL.load(Ordering::Relaxed) {
        0 => None,
        signal => Some(signal),
    }
}

/// Records that `signal` asked the run to stop; `false` if one already had.
pub fn record(signal: i32) -> bool {
    SIGNAL
        .compare_exchange(0, signal, Ordering::Relaxed, Ordering::Relaxed)
        .is_ok()
}

/// The exit code of a run ended by `signal`, as a shell reports it.
pub fn exit_code(signal: i32) -> u8 {
    (128 + signal).clamp(0, 255) as u8
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_128_plus_the_signal() {
        assert_eq!(exit_code(SIGINT), 130);
        assert_eq!(exit_code(SIGTERM), 143);
        assert_eq!(exit_code(SIGHUP), 129);
    }
}
