//! How many clients the server takes. A connection first holds a handshake place (a
//! bounded number at once, a few from any one address) until it logs in; only then does it
//! take a session place: at most `--max-sessions` in all and a few from any one address,
//! and past that it is told the server is full. So connections that never log in (silent
//! ones, held open until the login time runs out) cannot keep anyone out of a session.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Sessions one address may hold (a classroom behind one NAT still gets a few).
pub(super) const PER_ADDRESS: usize = 4;
/// Connections that may be logging in at once: a login takes a moment, so this many are
/// far more than clients arriving together need.
pub(super) const HANDSHAKES: usize = 64;
/// Of those, from one address.
pub(super) const HANDSHAKES_PER_ADDRESS: usize = 8;

/// How many places of one kind are held, in all and per address.
#[derive(Default)]
struct Held {
    all: usize,
    by_address: HashMap<IpAddr, usize>,
}

impl Held {
    /// Takes a place for `address` unless `all` or `per_address` are reached.
    fn take(&mut self, address: IpAddr, all: usize, per_address: usize) -> Result<(), Full> {
        let from_here = self.by_address.get(&address).copied().unwrap_or(0);
        if self.all >= all {
            return Err(Full::All);
        }
        if from_here >= per_address {
            return Err(Full::Address);
        }
        self.all += 1;
        *self.by_address.entry(address).or_default() += 1;
        Ok(())
    }

    fn give_back(&mut self, address: IpAddr) {
        self.all -= 1;
        if let Some(n) = self.by_address.get_mut(&address) {
            *n -= 1;
            if *n == 0 {
                self.by_address.remove(&address);
            }
        }
    }
}

/// Which bound a refused place met.
enum Full {
    All,
    Address,
}

#[derive(Default)]
struct Counts {
    sessions: Held,
    handshakes: Held,
}

/// The counts, shared by every connection.
#[derive(Clone)]
pub(super) struct Limits {
    max: usize,
    counts: Arc<Mutex<Counts>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Handshake,
    Session,
}

/// A place held until it is dropped.
pub(super) struct Place {
    limits: Limits,
    kind: Kind,
    address: IpAddr,
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

    fn place(&self, kind: Kind, address: IpAddr) -> Place {
        Place {
            limits: self.clone(),
            kind,
            address,
        }
    }

    /// A place to log in from, or `None`: the connection is closed unanswered.
    pub(super) fn handshake(&self, address: IpAddr) -> Option<Place> {
        let taken = self
            .counts()
            .handshakes
            .take(address, HANDSHAKES, HANDSHAKES_PER_ADDRESS);
        taken.ok().map(|()| self.place(Kind::Handshake, address))
    }

    /// A session for a client that logged in, or what to tell it.
    pub(super) fn admit(&self, address: IpAddr) -> Result<Place, String> {
        match self.counts().sessions.take(address, self.max, PER_ADDRESS) {
            Ok(()) => Ok(self.place(Kind::Session, address)),
            Err(Full::All) => Err(format!(
                "kiln: server full ({} sessions); try again later",
                self.max
            )),
            Err(Full::Address) => Err(format!(
                "kiln: server full for your address ({PER_ADDRESS} sessions from it)"
            )),
        }
    }

    /// Sessions open now.
    pub(super) fn open(&self) -> usize {
        self.counts().sessions.all
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut counts = self.limits.counts();
        let held = match self.kind {
            Kind::Handshake => &mut counts.handshakes,
            Kind::Session => &mut counts.sessions,
        };
        held.give_back(self.address);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, last])
    }

    #[test]
    fn sessions_are_limited_in_all_and_per_address_and_given_back() {
        let limits = Limits::new(6);
        let mut held: Vec<Place> = (0..PER_ADDRESS)
            .map(|_| limits.admit(ip(1)).unwrap())
            .collect();
        let why = limits.admit(ip(1)).err().unwrap();
        assert!(why.contains("your address"), "{why}");
        held.push(limits.admit(ip(2)).unwrap());
        held.push(limits.admit(ip(3)).unwrap());
        assert_eq!(limits.open(), 6);
        let why = limits.admit(ip(4)).err().unwrap();
        assert!(why.contains("(6 sessions)"), "{why}");
        held.truncate(2);
        assert_eq!(limits.open(), 2);
        assert!(limits.admit(ip(1)).is_ok());
    }

    #[test]
    fn connections_that_never_log_in_hold_no_session_place() {
        let limits = Limits::new(2);
        // Silent connections fill the handshake places of their addresses...
        let silent: Vec<Place> = (0..4)
            .flat_map(|a| (0..HANDSHAKES_PER_ADDRESS).map(move |_| a))
            .map(|a| limits.handshake(ip(10 + a)).unwrap())
            .collect();
        assert!(limits.handshake(ip(10)).is_none());
        // ...and keep nobody else from logging in or from a session.
        let login = limits.handshake(ip(1)).unwrap();
        let session = limits.admit(ip(1)).unwrap();
        assert_eq!(limits.open(), 1);
        drop((login, session));
        // All handshake places at once, from many addresses.
        let more: Vec<Place> = (0..HANDSHAKES - silent.len() - 1)
            .map(|n| limits.handshake(ip(100 + (n / 4) as u8)).unwrap())
            .collect();
        let last = limits.handshake(ip(200)).unwrap();
        assert!(limits.handshake(ip(201)).is_none());
        drop((more, last, silent));
        assert!(limits.handshake(ip(201)).is_some());
    }
}
