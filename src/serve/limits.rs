//! How many clients the server takes. A connection first holds a handshake place (a
//! bounded number at once, a few from any one address) until it logs in; only then does it
//! take a session place: at most `--max-sessions` in all and a few from any one address,
//! and past that it is told the server is full. So connections that never log in (silent
//! ones, held open until the login time runs out) cannot keep anyone out of a session.
//! Nor out of a handshake place: when all are taken, a newcomer takes the place of a
//! connection that has said nothing (no login request) for `SILENT_GRACE` (or at all, if
//! its address crowds the places and the newcomer's does not), or that has sent a password
//! (waiting for its check, or refused), from the address that holds the most places.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// Sessions one address may hold (a classroom behind one NAT still gets a few).
pub(super) const PER_ADDRESS: usize = 4;
/// Connections that may be logging in at once: a login takes a moment, so this many are
/// far more than clients arriving together need.
pub(super) const HANDSHAKES: usize = 64;
/// Of those, from one address.
pub(super) const HANDSHAKES_PER_ADDRESS: usize = 8;
/// How long a connection may stay silent (no login request yet: a client sends one a few
/// round trips after it connects) before a newcomer may take its place when all are taken.
const SILENT_GRACE: Duration = Duration::from_secs(1);
/// Handshake places an address holds from which its silent connections get no grace from
/// a newcomer holding at most one: a flood that reconnects as fast as it is refused keeps
/// every place young, and would keep everybody else out.
const CROWDING: usize = HANDSHAKES_PER_ADDRESS / 2;

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

/// What a connection holding a handshake place has done so far, in the order it may
/// happen (a connection that sent a password stays so when it asks again).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Said {
    /// Nothing: no login request yet.
    Nothing,
    /// It asked to log in (someone may be typing a password).
    Asked,
    /// It sent a password: its check waits or runs, or it was wrong (a guesser's state,
    /// most of the time).
    Password,
}

/// A handshake place.
struct Pending {
    id: u64,
    address: IpAddr,
    since: Instant,
    said: Said,
    evict: Arc<Notify>,
}

impl Pending {
    /// Whether a newcomer may take its place at `now` when all are taken; `crowding` if
    /// its address holds many places and the newcomer's few.
    fn evictable(&self, now: Instant, crowding: bool) -> bool {
        match self.said {
            Said::Nothing => crowding || now.saturating_duration_since(self.since) >= SILENT_GRACE,
            Said::Asked => false,
            Said::Password => true,
        }
    }
}

#[derive(Default)]
struct Counts {
    sessions: Held,
    handshakes: Held,
    pending: Vec<Pending>,
    /// Handshake places given to newcomers: their old holders do not give them back.
    evicted: HashSet<u64>,
    next_id: u64,
}

impl Counts {
    /// Frees, for a newcomer from `address`, the place of a connection that was silent
    /// for `SILENT_GRACE` (or at all, from an address `CROWDING` places) or sent a
    /// password, of those the one whose address holds the most places (the oldest of
    /// those), and tells it to close; whether there was one.
    fn evict(&mut self, now: Instant, address: IpAddr) -> bool {
        let by_address = &self.handshakes.by_address;
        let held = |address: &IpAddr| by_address.get(address).copied().unwrap_or(0);
        let newcomer_holds = held(&address);
        let victim = self
            .pending
            .iter()
            .enumerate()
            .filter(|(_, p)| p.evictable(now, newcomer_holds <= 1 && held(&p.address) >= CROWDING))
            .max_by_key(|(_, s)| {
                (
                    by_address.get(&s.address).copied(),
                    std::cmp::Reverse(s.since),
                )
            })
            .map(|(at, _)| at);
        let Some(at) = victim else {
            return false;
        };
        let victim = self.pending.swap_remove(at);
        self.handshakes.give_back(victim.address);
        self.evicted.insert(victim.id);
        victim.evict.notify_one();
        true
    }
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
    id: u64,
    /// Told when a newcomer took this (handshake) place.
    evict: Arc<Notify>,
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

    fn place(&self, counts: &mut Counts, kind: Kind, address: IpAddr) -> Place {
        counts.next_id += 1;
        Place {
            limits: self.clone(),
            kind,
            address,
            id: counts.next_id,
            evict: Arc::new(Notify::new()),
        }
    }

    /// A place to log in from, or `None`: the connection is closed unanswered. When all
    /// are taken, a silent or guessing connection's place is freed for it
    /// (`Counts::evict`).
    pub(super) fn handshake(&self, address: IpAddr) -> Option<Place> {
        self.handshake_at(address, Instant::now())
    }

    fn handshake_at(&self, address: IpAddr, now: Instant) -> Option<Place> {
        let mut counts = self.counts();
        let mut taken = counts
            .handshakes
            .take(address, HANDSHAKES, HANDSHAKES_PER_ADDRESS);
        if matches!(taken, Err(Full::All)) && counts.evict(now, address) {
            taken = counts
                .handshakes
                .take(address, HANDSHAKES, HANDSHAKES_PER_ADDRESS);
        }
        taken.ok()?;
        let place = self.place(&mut counts, Kind::Handshake, address);
        counts.pending.push(Pending {
            id: place.id,
            address,
            since: now,
            said: Said::Nothing,
            evict: Arc::clone(&place.evict),
        });
        Some(place)
    }

    /// A session for a client that logged in, or what to tell it.
    pub(super) fn admit(&self, address: IpAddr) -> Result<Place, String> {
        let mut counts = self.counts();
        match counts.sessions.take(address, self.max, PER_ADDRESS) {
            Ok(()) => Ok(self.place(&mut counts, Kind::Session, address)),
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

impl Place {
    /// The connection asked to log in: it is no longer silent, and keeps its place
    /// (unless it sent a password before).
    pub(super) fn spoke(&self) {
        self.say(Said::Asked);
    }

    /// The connection sent a password: a newcomer may take its place, while its check
    /// waits (it may be one of many guesses) and after (it was wrong).
    pub(super) fn sent_password(&self) {
        self.say(Said::Password);
    }

    fn say(&self, said: Said) {
        let mut counts = self.limits.counts();
        if let Some(pending) = counts.pending.iter_mut().find(|p| p.id == self.id) {
            pending.said = pending.said.max(said);
        }
    }

    /// Told when a newcomer took this place (the connection is then to close).
    pub(super) fn eviction(&self) -> Arc<Notify> {
        Arc::clone(&self.evict)
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut counts = self.limits.counts();
        match self.kind {
            Kind::Session => counts.sessions.give_back(self.address),
            // An evicted place was given back when it was taken from this one.
            Kind::Handshake if counts.evicted.remove(&self.id) => {}
            Kind::Handshake => {
                counts.pending.retain(|p| p.id != self.id);
                counts.handshakes.give_back(self.address);
            }
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
        // Full: an address that holds places itself waits for one...
        assert!(limits.handshake(ip(100)).is_none());
        // ...while a newcomer takes a silent one of a crowding address.
        let newcomer = limits.handshake(ip(201)).unwrap();
        drop((more, last, silent, newcomer));
        assert!(limits.handshake(ip(201)).is_some());
    }

    #[test]
    fn a_flood_that_reconnects_at_once_keeps_no_newcomer_out() {
        let limits = Limits::new(16);
        let start = Instant::now();
        // Every place taken a moment ago by eight addresses, none past its grace.
        let held: Vec<Place> = (0..HANDSHAKES)
            .map(|n| limits.handshake_at(ip(10 + (n / 8) as u8), start).unwrap())
            .collect();
        assert!(limits.handshake_at(ip(2), start).is_some());
        drop(held);
    }

    #[tokio::test]
    async fn a_newcomer_takes_the_place_of_a_silent_connection_from_the_busiest_address() {
        let limits = Limits::new(16);
        let start = Instant::now();
        // All places: 7 addresses with 8 each, and one with 7 whose connections spoke.
        let mut held: Vec<Place> = (0..HANDSHAKES - 1)
            .map(|n| {
                let place = limits.handshake_at(ip(10 + (n / 8) as u8), start).unwrap();
                if n >= 56 {
                    place.spoke();
                }
                place
            })
            .collect();
        let talker = limits.handshake_at(ip(1), start).unwrap();
        talker.spoke();
        // Within the grace, a newcomer from an address that holds places is refused.
        assert!(
            limits
                .handshake_at(ip(17), start + SILENT_GRACE / 2)
                .is_none()
        );
        let later = start + SILENT_GRACE;
        let newcomer = limits.handshake_at(ip(2), later).unwrap();
        // The oldest silent connection of a busiest address is told to close...
        let mut told = Vec::new();
        for (at, place) in held.iter().enumerate() {
            let notified = place.eviction();
            if tokio::time::timeout(Duration::ZERO, notified.notified())
                .await
                .is_ok()
            {
                told.push(at);
            }
        }
        assert_eq!(told.len(), 1, "{told:?}");
        let evicted = told[0];
        assert!(
            held[evicted].address != ip(17),
            "one that spoke was put out"
        );
        // ...and its place is not given back twice when it goes.
        held.remove(evicted);
        assert_eq!(limits.counts().handshakes.all, HANDSHAKES);
        // Those that asked to log in are never put out: then nobody comes in...
        for place in &held {
            place.spoke();
        }
        newcomer.spoke();
        assert!(
            limits
                .handshake_at(ip(3), later + SILENT_GRACE * 10)
                .is_none()
        );
        // ...unless one sent a password (asking again does not undo that).
        held[0].sent_password();
        held[0].spoke();
        let replacement = limits.handshake_at(ip(3), later).unwrap();
        let notified = held[0].eviction();
        let told = tokio::time::timeout(Duration::ZERO, notified.notified()).await;
        assert!(told.is_ok());
        drop((held, talker, newcomer, replacement));
        assert_eq!(limits.counts().handshakes.all, 0);
        assert!(limits.counts().pending.is_empty() && limits.counts().evicted.is_empty());
    }
}
