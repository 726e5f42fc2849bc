//! How many clients the server takes: at most `--max-sessions` in all and a few from any
//! one address; a bounded number more are told the server is full.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Sessions one address may hold (a classroom behind one NAT still gets a few).
pub(super) const PER_ADDRESS: usize = 4;

#[derive(Default)]
struct Counts {
    open: usize,
    by_address: HashMap<IpAddr, usize>,
    refusing: usize,
}

/// The counts, shared by every connection.
#[derive(Clone)]
pub(super) struct Limits {
    max: usize,
    counts: Arc<Mutex<Counts>>,
}

/// What a new connection gets.
pub(super) enum Admission {
    /// A session; its place is given back when this is dropped.
    Admitted(Place),
    /// To be told why not, then closed; it holds one of the (bounded) refusal places.
    Refused(Place, String),
    /// Closed at once: even the refusals are at their limit.
    Dropped,
}

/// A place held until the connection ends.
pub(super) struct Place {
    limits: Limits,
    address: Option<IpAddr>,
}

impl Limits {
    pub(super) fn new(max: usize) -> Limits {
        Limits {
            max,
            counts: Arc::default(),
        }
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn admit(&self, address: IpAddr) -> Admission {
        let mut counts = self.counts();
        let from_here = counts.by_address.get(&address).copied().unwrap_or(0);
        let why = if counts.open >= self.max {
            format!("kiln: server full ({} sessions); try again later", self.max)
        } else if from_here >= PER_ADDRESS {
            format!("kiln: server full for your address ({PER_ADDRESS} sessions from it)")
        } else {
            counts.open += 1;
            *counts.by_address.entry(address).or_default() += 1;
            return Admission::Admitted(Place {
                limits: self.clone(),
                address: Some(address),
            });
        };
        if counts.refusing >= self.max {
            return Admission::Dropped;
        }
        counts.refusing += 1;
        Admission::Refused(
            Place {
                limits: self.clone(),
                address: None,
            },
            why,
        )
    }

    /// Sessions open now.
    pub(super) fn open(&self) -> usize {
        self.counts().open
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut counts = self.limits.counts();
        match self.address {
            Some(address) => {
                counts.open -= 1;
                if let Some(n) = counts.by_address.get_mut(&address) {
                    *n -= 1;
                    if *n == 0 {
                        counts.by_address.remove(&address);
                    }
                }
            }
            None => counts.refusing -= 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, last])
    }

    #[test]
    fn places_are_limited_in_all_and_per_address_and_given_back() {
        let limits = Limits::new(6);
        let mut held: Vec<Admission> = (0..PER_ADDRESS).map(|_| limits.admit(ip(1))).collect();
        assert!(held.iter().all(|a| matches!(a, Admission::Admitted(_))));
        let Admission::Refused(_, why) = limits.admit(ip(1)) else {
            panic!("a fifth session from one address")
        };
        assert!(why.contains("your address"), "{why}");
        held.push(limits.admit(ip(2)));
        held.push(limits.admit(ip(3)));
        assert_eq!(limits.open(), 6);
        let refusals: Vec<Admission> = (0..6).map(|_| limits.admit(ip(4))).collect();
        assert!(refusals.iter().all(|a| matches!(a, Admission::Refused(..))));
        assert!(matches!(limits.admit(ip(4)), Admission::Dropped));
        drop(refusals);
        held.truncate(2);
        assert_eq!(limits.open(), 2);
        assert!(matches!(limits.admit(ip(1)), Admission::Admitted(_)));
    }
}
