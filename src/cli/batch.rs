//! Running a command over many input lines on several cores, with the output in input order.
//!
//! One thread reads lines into chunks; the calling thread hands each chunk to a rayon pool,
//! which works on its lines in parallel and collects their outputs in order, then writes them.
//! At most three chunks are alive at once (one being read, one waiting, one being worked on),
//! so memory stays bounded whatever the input's length.

use rayon::prelude::*;
use std::io::{self, BufReader, Read};
use std::sync::mpsc::{sync_channel, TryRecvError};

use super::lines::{next_line, Line, MAX_INPUT};

/// Lines in a chunk: enough to share among the cores, and to keep the hand-over rare.
const CHUNK_LINES: usize = 2048;

/// Bytes in a chunk, beyond which it is handed over early (long lines).
const CHUNK_BYTES: usize = 1 << 20;

/// What a batch reads: standard input or a file, buffered.
pub type Input = BufReader<Box<dyn Read + Send>>;

/// Reads every line of `input`, numbered from 1, and calls `work` on each (with a state from
/// `init`, one per thread, for caches) and `emit` on each result in input order. `idle` is
/// called when no more input is ready, before waiting for it: a pipe then sees results as they
/// come, while a bulk run writes in large blocks.
///
/// `emit` and `idle` share `sink` (the output).
///
/// With `jobs` at 1 everything happens on the calling thread, one line at a time.
pub fn run<C, T: Send, S>(
    mut input: Input,
    jobs: usize,
    init: impl Fn() -> C + Sync + Send,
    work: impl Fn(&mut C, usize, Line) -> T + Sync + Send,
    sink: &mut S,
    mut emit: impl FnMut(&mut S, T) -> io::Result<()>,
    mut idle: impl FnMut(&mut S) -> io::Result<()>,
) -> io::Result<()> {
    if jobs <= 1 {
        let mut state = init();
        let mut number = 0;
        loop {
            if input.buffer().is_empty() {
                idle(sink)?;
            }
            let Some(line) = next_line(&mut input, MAX_INPUT)? else {
                return Ok(());
            };
            number += 1;
            emit(sink, work(&mut state, number, line))?;
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(io::Error::other)?;
    let (sender, chunks) = sync_channel::<io::Result<Vec<(usize, Line)>>>(1);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut number = 0;
            loop {
                let chunk = read_chunk(&mut input, &mut number);
                let last = !matches!(&chunk, Ok(lines) if !lines.is_empty());
                // The receiver is gone when writing failed (a closed pipe): stop reading.
                if sender.send(chunk).is_err() || last {
                    return;
                }
            }
        });
        let result = (|| -> io::Result<()> {
            loop {
                let chunk = match chunks.try_recv() {
                    Ok(chunk) => chunk,
                    Err(TryRecvError::Empty) => {
                        idle(sink)?;
                        match chunks.recv() {
                            Ok(chunk) => chunk,
                            Err(_) => return Ok(()),
                        }
                    }
                    Err(TryRecvError::Disconnected) => return Ok(()),
                }?;
                if chunk.is_empty() {
                    return Ok(());
                }
                let done: Vec<T> = pool.install(|| {
                    chunk
                        .into_par_iter()
                        .map_init(&init, |state, (number, line)| work(state, number, line))
                        .collect()
                });
                for result in done {
                    emit(sink, result)?;
                }
            }
        })();
        // Dropping the receiver ends a reader still waiting to hand over a chunk.
        drop(chunks);
        result
    })
}

/// The next chunk of numbered lines: full, or what the input had ready (so that a pipe is not
/// kept waiting for a chunk to fill); empty at the end of input.
fn read_chunk(input: &mut Input, number: &mut usize) -> io::Result<Vec<(usize, Line)>> {
    let mut lines = Vec::with_capacity(CHUNK_LINES);
    let mut bytes = 0;
    while lines.len() < CHUNK_LINES && bytes < CHUNK_BYTES {
        if !lines.is_empty() && input.buffer().is_empty() {
            break;
        }
        let Some(line) = next_line(input, MAX_INPUT)? else {
            break;
        };
        *number += 1;
        if let Line::Text(text) = &line {
            bytes += text.len();
        }
        lines.push((*number, line));
    }
    Ok(lines)
}

/// The number of threads `--jobs` defaults to: the cores available.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
