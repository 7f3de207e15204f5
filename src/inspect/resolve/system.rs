//! The lookups of `check --resolve`: the system resolver (`getaddrinfo`, what curl, Python,
//! Go's cgo resolver and most clients ask, with `/etc/hosts` and the system's DNS servers), or
//! one DNS server asked directly over UDP (`--dns-server`). Each lookup has a time limit; at
//! most a given number run at once (a lookup that timed out keeps its slot until the resolver
//! returns, so a stuck resolver cannot make threads pile up); each name is looked up once per
//! run.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs, UdpSocket};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::{Lookup, Outcome, Resolver};

/// Where names are looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Server {
    /// The system resolver (`getaddrinfo`).
    System,
    /// One DNS server, asked for A and AAAA records over UDP.
    Dns(SocketAddr),
}

/// How lookups are made.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub server: Server,
    /// The longest a lookup may take, waiting for a free slot included.
    pub timeout: Duration,
    /// The most lookups that run at once.
    pub concurrency: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            server: Server::System,
            timeout: Duration::from_secs(2),
            concurrency: 8,
        }
    }
}

/// A count of free slots.
#[derive(Debug)]
struct Slots {
    free: Mutex<usize>,
    freed: Condvar,
}

impl Slots {
    /// Takes a slot, waiting until `deadline` at most.
    fn take(self: &Arc<Self>, deadline: Instant) -> Option<Slot> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            let left = deadline.checked_duration_since(Instant::now())?;
            free = self
                .freed
                .wait_timeout(free, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        *free -= 1;
        Some(Slot(Arc::clone(self)))
    }
}

/// A slot taken; given back when dropped (by the lookup's thread, when the lookup returns).
struct Slot(Arc<Slots>);

impl Drop for Slot {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.0.freed.notify_one();
    }
}

/// The resolver of a run: its configuration, its slots and its cache.
#[derive(Debug)]
pub struct SystemResolver {
    config: Config,
    slots: Arc<Slots>,
    cache: Mutex<HashMap<String, Outcome>>,
}

impl SystemResolver {
    pub fn new(config: Config) -> SystemResolver {
        SystemResolver {
            config,
            slots: Arc::new(Slots {
                free: Mutex::new(config.concurrency.max(1)),
                freed: Condvar::new(),
            }),
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// Who answers, as a finding names it.
    pub fn by(&self) -> String {
        match self.config.server {
            Server::System => "the system resolver".to_owned(),
            Server::Dns(address) => format!("the DNS server {address}"),
        }
    }

    /// Starts the lookup of `name` on a thread of its own; its outcome arrives on the channel.
    fn start(&self, name: &str, deadline: Instant) -> Result<mpsc::Receiver<Outcome>, Outcome> {
        let slot = self.slots.take(deadline).ok_or(Outcome::TimedOut {
            seconds: self.config.timeout.as_secs_f64(),
        })?;
        let (send, receive) = mpsc::channel();
        let name = name.to_owned();
        let server = self.config.server;
        let timeout = self.config.timeout;
        std::thread::Builder::new()
            .name("lookup".into())
            .spawn(move || {
                let outcome = match server {
                    Server::System => system_lookup(&name),
                    Server::Dns(address) => dns_lookup(&name, address, timeout),
                };
                // The receiver is gone when the caller stopped waiting.
                let _ = send.send(outcome);
                drop(slot);
            })
            .map_err(|e| Outcome::Failed {
                error: format!("cannot start a lookup: {e}"),
            })?;
        Ok(receive)
    }
}

impl Resolver for SystemResolver {
    fn lookup(&self, names: &[String]) -> Vec<Lookup> {
        let deadline = Instant::now() + self.config.timeout;
        let cached: Vec<Option<Outcome>> = {
            let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            names.iter().map(|n| cache.get(n).cloned()).collect()
        };
        // Every name not yet looked up, started at once; then each waited for until the
        // deadline.
        let started: Vec<Option<Result<mpsc::Receiver<Outcome>, Outcome>>> = names
            .iter()
            .zip(&cached)
            .map(|(name, cached)| cached.is_none().then(|| self.start(name, deadline)))
            .collect();
        let mut lookups = Vec::with_capacity(names.len());
        for ((name, cached), started) in names.iter().zip(cached).zip(started) {
            let outcome = match (cached, started) {
                (Some(outcome), _) => outcome,
                (None, Some(Err(outcome))) => outcome,
                (None, Some(Ok(receive))) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    let outcome = receive.recv_timeout(left).unwrap_or(Outcome::TimedOut {
                        seconds: self.config.timeout.as_secs_f64(),
                    });
                    self.cache
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(name.clone(), outcome.clone());
                    outcome
                }
                (None, None) => unreachable!("a name not in the cache is started"),
            };
            lookups.push(Lookup {
                name: name.clone(),
                by: self.by(),
                outcome,
            });
        }
        lookups
    }
}

/// `getaddrinfo` through the standard library.
fn system_lookup(name: &str) -> Outcome {
    match (name, 0u16).to_socket_addrs() {
        Ok(addresses) => {
            let mut out: Vec<IpAddr> = Vec::new();
            for a in addresses {
                if !out.contains(&a.ip()) {
                    out.push(a.ip());
                }
            }
            match out.is_empty() {
                true => Outcome::Failed {
                    error: "no address".into(),
                },
                false => Outcome::Addresses { addresses: out },
            }
        }
        Err(e) => Outcome::Failed {
            error: e.to_string(),
        },
    }
}

/// Asks `server` for the A and AAAA records of `name` (RFC 1035 § 4.2.1: UDP), following the
/// CNAMEs in its answers.
fn dns_lookup(name: &str, server: SocketAddr, timeout: Duration) -> Outcome {
    use hickory_proto::op::{Message, Query, ResponseCode};
    use hickory_proto::rr::{Name, RData, RecordType};

    let failed = |error: String| Outcome::Failed { error };
    let Ok(qname) = Name::from_ascii(format!("{name}.")) else {
        return failed("not a DNS name".into());
    };
    let bind: SocketAddr = match server {
        SocketAddr::V4(_) => ([0, 0, 0, 0], 0).into(),
        SocketAddr::V6(_) => ([0u16; 8], 0).into(),
    };
    let socket = match UdpSocket::bind(bind).and_then(|s| s.connect(server).map(|_| s)) {
        Ok(socket) => socket,
        Err(e) => return failed(format!("cannot reach {server}: {e}")),
    };
    let mut pending = HashMap::new();
    for record_type in [RecordType::A, RecordType::AAAA] {
        let mut query = Message::query();
        query.metadata.recursion_desired = true;
        query.add_query(Query::query(qname.clone(), record_type));
        let bytes = match query.to_vec() {
            Ok(bytes) => bytes,
            Err(e) => return failed(e.to_string()),
        };
        if let Err(e) = socket.send(&bytes) {
            return failed(format!("cannot send to {server}: {e}"));
        }
        pending.insert(query.metadata.id, record_type);
    }
    let deadline = Instant::now() + timeout;
    let mut addresses = Vec::new();
    let mut codes = Vec::new();
    let mut buffer = [0u8; 4096];
    while !pending.is_empty() {
        let Some(left) = deadline.checked_duration_since(Instant::now()) else {
            return Outcome::TimedOut {
                seconds: timeout.as_secs_f64(),
            };
        };
        if socket
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .is_err()
        {
            return failed("cannot wait for the answer".into());
        }
        let n = match socket.recv(&mut buffer) {
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                continue;
            }
            Err(e) => return failed(format!("{server}: {e}")),
        };
        // An answer that does not parse, or answers no pending question, is not one.
        let Ok(response) = Message::from_vec(&buffer[..n]) else {
            continue;
        };
        if pending.remove(&response.metadata.id).is_none() {
            continue;
        }
        if response.metadata.truncation {
            return failed(format!("{server} truncated its answer"));
        }
        codes.push(response.metadata.response_code);
        // The answer's records for the name and the names its CNAMEs lead to.
        let mut names = vec![qname.clone()];
        for record in &response.answers {
            if !names.iter().any(|n| n == &record.name) {
                continue;
            }
            match &record.data {
                RData::A(a) => addresses.push(IpAddr::V4(a.0)),
                RData::AAAA(a) => addresses.push(IpAddr::V6(a.0)),
                RData::CNAME(target) => names.push(target.0.clone()),
                _ => {}
            }
        }
    }
    if !addresses.is_empty() {
        addresses.dedup();
        return Outcome::Addresses { addresses };
    }
    match codes.iter().find(|c| **c != ResponseCode::NoError) {
        Some(ResponseCode::NXDomain) => failed("no such name (NXDOMAIN)".into()),
        Some(code) => failed(format!("{server} answered {code}")),
        None => failed("no address record".into()),
    }
}

/// Lookups on a thread of their own, for a caller that must never wait (the inspector): it
/// asks for a URL's names and polls for the answer; an answer for names no longer asked is
/// dropped.
#[derive(Debug)]
pub struct Background {
    ask: mpsc::Sender<Vec<String>>,
    answers: mpsc::Receiver<(Vec<String>, Vec<Lookup>)>,
    /// The names last asked for, and their lookups once they arrived.
    asked: Vec<String>,
    answered: Option<Vec<Lookup>>,
}

impl Background {
    /// Starts the thread; it ends when the `Background` is dropped (after the lookup it is
    /// making, which its time limit bounds).
    pub fn start(config: Config) -> std::io::Result<Background> {
        let (ask, asked) = mpsc::channel::<Vec<String>>();
        let (answer, answers) = mpsc::channel();
        let resolver = SystemResolver::new(config);
        std::thread::Builder::new()
            .name("lookups".into())
            .spawn(move || {
                while let Ok(mut names) = asked.recv() {
                    // Only the latest names matter: the ones typed over are skipped.
                    while let Ok(newer) = asked.try_recv() {
                        names = newer;
                    }
                    let lookups = resolver.lookup(&names);
                    if answer.send((names, lookups)).is_err() {
                        return;
                    }
                }
            })?;
        Ok(Background {
            ask,
            answers,
            asked: Vec::new(),
            answered: Some(Vec::new()),
        })
    }

    /// Asks for the lookups of `names`, unless they are the names last asked for.
    pub fn ask(&mut self, names: Vec<String>) {
        if names == self.asked {
            return;
        }
        self.answered = names.is_empty().then(Vec::new);
        if !names.is_empty() {
            // The thread is gone only if it panicked: the names then stay unanswered, and the
            // caller keeps saying so.
            let _ = self.ask.send(names.clone());
        }
        self.asked = names;
    }

    /// Takes the answers that have arrived, never waiting; true when the names last asked for
    /// were answered.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Ok((names, lookups)) = self.answers.try_recv() {
            if names == self.asked {
                self.answered = Some(lookups);
                changed = true;
            }
        }
        changed
    }

    /// The lookups of the names last asked for; `None` while they are being looked up.
    pub fn lookups(&self) -> Option<&[Lookup]> {
        self.answered.as_deref()
    }
}
