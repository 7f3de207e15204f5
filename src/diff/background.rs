//! External parsers in the background: one thread per adapter, answers through a channel, so
//! that a front end (the inspector's frame, the command line's next input) never waits on a
//! runtime.

use super::adapter::{Adapter, AdapterSpec, Stopper, Timeouts};
use super::Answer;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};

/// Which requests a worker answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// Every request, in order (the command line: every input gets every reading).
    Every,
    /// Only the newest request waiting (the inspector: a keystroke supersedes the last).
    Latest,
}

/// One answer, tagged with the request it answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Update {
    /// The number the caller gave the request; stale ones can be told apart and dropped.
    pub generation: u64,
    /// The index of the parser in [`Background::names`].
    pub parser: usize,
    pub name: String,
    pub answer: Answer,
}

struct Request {
    generation: u64,
    input: String,
    base: Option<String>,
}

struct Worker {
    requests: Option<Sender<Request>>,
    thread: Option<JoinHandle<()>>,
    /// Ends a wait on the adapter's process, so that the thread can be joined at once.
    stopper: Stopper,
}

/// The external parsers, each running in its own thread; dropping this stops every adapter.
pub struct Background {
    names: Vec<String>,
    workers: Vec<Worker>,
    updates: Receiver<Update>,
}

impl std::fmt::Debug for Background {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Background")
            .field("names", &self.names)
            .finish_non_exhaustive()
    }
}

impl Background {
    /// Starts a worker per adapter. The adapters' processes start on their first request.
    pub fn new(specs: Vec<AdapterSpec>, timeouts: Timeouts, delivery: Delivery) -> Background {
        let (updates_in, updates) = mpsc::channel();
        let mut names = Vec::new();
        let mut workers = Vec::new();
        for (index, spec) in specs.into_iter().enumerate() {
            names.push(spec.name.clone());
            let (requests, inbox) = mpsc::channel::<Request>();
            let out = updates_in.clone();
            let name = spec.name.clone();
            let mut adapter = Adapter::new(spec, timeouts);
            let stopper = adapter.stopper();
            let thread = thread::Builder::new()
                .name(format!("urlscope-adapter-{name}"))
                .spawn(move || {
                    while let Ok(mut request) = inbox.recv() {
                        if delivery == Delivery::Latest {
                            while let Ok(newer) = inbox.try_recv() {
                                request = newer;
                            }
                        }
                        let answer = adapter.read(&request.input, request.base.as_deref());
                        let update = Update {
                            generation: request.generation,
                            parser: index,
                            name: name.clone(),
                            answer,
                        };
                        if out.send(update).is_err() {
                            break;
                        }
                    }
                    // The adapter's drop stops its process.
                })
                .ok();
            workers.push(Worker {
                requests: Some(requests),
                thread,
                stopper,
            });
        }
        Background {
            names,
            workers,
            updates,
        }
    }

    /// The parsers' names, in the order of [`Update::parser`].
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Asks every adapter for its reading of `input`; answers arrive on [`Self::updates`].
    pub fn request(&self, generation: u64, input: &str, base: Option<&str>) {
        for worker in &self.workers {
            if let Some(requests) = &worker.requests {
                let _ = requests.send(Request {
                    generation,
                    input: input.to_owned(),
                    base: base.map(str::to_owned),
                });
            }
        }
    }

    /// The channel answers arrive on: poll it with `try_recv` from a frame loop, or block.
    pub fn updates(&self) -> &Receiver<Update> {
        &self.updates
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        // Closing every queue first lets the adapters shut down side by side; a thread waiting
        // on its process (up to the request timeout) is told to stop waiting.
        for worker in &mut self.workers {
            drop(worker.requests.take());
            worker.stopper.stop();
        }
        for worker in &mut self.workers {
            if let Some(thread) = worker.thread.take() {
                let _ = thread.join();
            }
        }
    }
}
