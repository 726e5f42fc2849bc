//! Turns to check a password. Each wrong guess costs a full hash (an argon2 hash with
//! m = 64 MiB takes 64 MiB and a fraction of a second of one core), before anyone has
//! logged in; so only a few run at once, server-wide, however many clients guess:
//!
//! - `turns`: as many checks at once as half the cores and the memory the server sets
//!   aside for them (`CHECKS_MEMORY_KIB`) allow, at least one: a check's memory is
//!   counted before it runs.
//! - An address has at most `PER_ADDRESS` guesses waiting or running; past that, a guess
//!   is refused at once, unchecked.
//! - A turn that comes free goes to the waiting guess whose address was served least
//!   recently (never, for a new one): a client guessing from its own address waits for at
//!   most one check of each of the others, however many guesses they queue.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

/// Memory the checks running at once may take together, in KiB.
const CHECKS_MEMORY_KIB: u64 = 256 * 1024;
/// Guesses one address may have waiting or running (as many as its sessions).
const PER_ADDRESS: usize = super::limits::PER_ADDRESS;
/// Addresses remembered for fairness; past that the memory starts afresh.
const REMEMBERED: usize = 4096;

/// How many checks may run at once: half the cores (the others stay for the sessions and
/// their handshakes), no more than fit in `CHECKS_MEMORY_KIB`, and at least one.
pub(super) fn turns(cores: usize, check_kib: u32) -> usize {
    let fit = CHECKS_MEMORY_KIB / u64::from(check_kib.max(1));
    (cores / 2)
        .min(usize::try_from(fit).unwrap_or(usize::MAX))
        .max(1)
}

struct Waiter {
    address: IpAddr,
    turn: oneshot::Sender<()>,
}

struct State {
    /// Turns not taken.
    free: usize,
    waiting: VecDeque<Waiter>,
    /// Guesses waiting or running, by address.
    queued: HashMap<IpAddr, usize>,
    /// When each address was last given a turn (a count of turns given).
    served: HashMap<IpAddr, u64>,
    given: u64,
}

impl State {
    fn serve(&mut self, address: IpAddr) {
        if self.served.len() >= REMEMBERED {
            self.served.clear();
        }
        self.given += 1;
        self.served.insert(address, self.given);
    }

    /// Hands a turn that came free to the waiter served least recently, or keeps it.
    fn pass_on(&mut self) {
        loop {
            let next = self
                .waiting
                .iter()
                .enumerate()
                .min_by_key(|(at, w)| (self.served.get(&w.address).copied().unwrap_or(0), *at))
                .map(|(at, _)| at);
            let Some(waiter) = next.and_then(|at| self.waiting.remove(at)) else {
                self.free += 1;
                return;
            };
            // A waiter that gave up (its connection went) is skipped.
            if waiter.turn.send(()).is_ok() {
                self.serve(waiter.address);
                return;
            }
        }
    }

    fn leave(&mut self, address: IpAddr) {
        if let Some(n) = self.queued.get_mut(&address) {
            *n -= 1;
            if *n == 0 {
                self.queued.remove(&address);
            }
        }
    }
}

/// The server's turns, shared by every connection.
#[derive(Clone)]
pub(super) struct Checks(Arc<Mutex<State>>);

/// A guess's place in line, held while it waits and runs.
struct Queued {
    checks: Checks,
    address: IpAddr,
}

impl Drop for Queued {
    fn drop(&mut self) {
        self.checks.state().leave(self.address);
    }
}

/// A turn to run one check; the next guess gets it when this is dropped.
pub(super) struct Turn {
    checks: Checks,
    _queued: Queued,
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.checks.state().pass_on();
    }
}

/// Waits for a turn; if dropped after one was given (its connection went), passes it on.
struct Waiting {
    checks: Checks,
    turn: oneshot::Receiver<()>,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.turn.close();
        if self.turn.try_recv().is_ok() {
            self.checks.state().pass_on();
        }
    }
}

impl Checks {
    /// `turns` checks at once.
    pub(super) fn new(turns: usize) -> Checks {
        Checks(Arc::new(Mutex::new(State {
            free: turns,
            waiting: VecDeque::new(),
            queued: HashMap::new(),
            served: HashMap::new(),
            given: 0,
        })))
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A turn for a guess from `address`, once it comes; `None` if that address already has
    /// `PER_ADDRESS` guesses in line.
    pub(super) async fn turn(&self, address: IpAddr) -> Option<Turn> {
        let (queued, mut waiting) = {
            let mut state = self.state();
            let queued = state.queued.entry(address).or_default();
            if *queued >= PER_ADDRESS {
                return None;
            }
            *queued += 1;
            let queued = Queued {
                checks: self.clone(),
                address,
            };
            if state.free > 0 && state.waiting.is_empty() {
                state.free -= 1;
                state.serve(address);
                return Some(Turn {
                    checks: self.clone(),
                    _queued: queued,
                });
            }
            let (tx, rx) = oneshot::channel();
            state.waiting.push_back(Waiter { address, turn: tx });
            let waiting = Waiting {
                checks: self.clone(),
                turn: rx,
            };
            (queued, waiting)
        };
        (&mut waiting.turn).await.ok()?;
        // The turn is this guess's now: `Waiting` must not pass it on.
        waiting.turn = oneshot::channel().1;
        Some(Turn {
            checks: self.clone(),
            _queued: queued,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, last])
    }

    #[test]
    fn turns_follow_the_cores_and_the_memory() {
        // m = 64 MiB on 2 cores: one at a time; on 16 cores, the 256 MiB fit four.
        assert_eq!(turns(2, 64 * 1024), 1);
        assert_eq!(turns(16, 64 * 1024), 4);
        assert_eq!(turns(16, 256 * 1024), 1);
        // bcrypt's 4 KiB: the cores decide.
        assert_eq!(turns(16, 4), 8);
        assert_eq!(turns(1, 4), 1);
    }

    #[tokio::test]
    async fn a_new_address_goes_before_a_flood_and_an_address_queues_only_a_few() {
        let checks = Checks::new(1);
        let running = checks.turn(ip(10)).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let guess = |a: u8| {
            let (checks, order) = (checks.clone(), Arc::clone(&order));
            tokio::spawn(async move {
                let turn = checks.turn(ip(a)).await.unwrap();
                order.lock().unwrap().push(a);
                tokio::time::sleep(Duration::from_millis(2)).await;
                drop(turn);
            })
        };
        // A flood from three addresses, all the guesses each may queue; more are refused.
        let mut flood = Vec::new();
        for a in 10..13 {
            let queued = if a == 10 {
                PER_ADDRESS - 1
            } else {
                PER_ADDRESS
            };
            flood.extend((0..queued).map(|_| guess(a)));
            tokio::time::sleep(Duration::from_millis(5)).await;
            assert!(checks.turn(ip(a)).await.is_none(), "address {a}");
        }
        // The newcomer, last in line, waits for at most one guess of each other address.
        let newcomer = guess(1);
        tokio::time::sleep(Duration::from_millis(5)).await;
        drop(running);
        newcomer.await.unwrap();
        for guess in flood {
            guess.await.unwrap();
        }
        let order = order.lock().unwrap().clone();
        assert_eq!(order.len(), 3 * PER_ADDRESS, "{order:?}");
        let at = order.iter().position(|&a| a == 1).unwrap();
        assert!(at <= 2, "{order:?}");
        assert_eq!(checks.state().free, 1);
        assert!(checks.state().queued.is_empty());
        assert!(checks.state().waiting.is_empty());
    }

    #[tokio::test]
    async fn a_guess_that_gives_up_passes_its_turn_on() {
        let checks = Checks::new(1);
        let running = checks.turn(ip(1)).await.unwrap();
        let gives_up = {
            let checks = checks.clone();
            tokio::spawn(async move { checks.turn(ip(2)).await.map(drop) })
        };
        tokio::time::sleep(Duration::from_millis(5)).await;
        gives_up.abort();
        let _ = gives_up.await;
        drop(running);
        let next = tokio::time::timeout(Duration::from_secs(1), checks.turn(ip(3))).await;
        let next = next.unwrap();
        assert!(next.is_some());
        assert_eq!(checks.state().queued.len(), 1);
        drop(next);
        assert_eq!(checks.state().free, 1);
    }
}
