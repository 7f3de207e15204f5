//! Running a command over many input lines on several cores, with the output in input order.
//!
//! One thread reads lines into chunks, each chunk's lines one after the other in one buffer;
//! the calling thread hands each chunk to a rayon pool, whose workers decode its lines and
//! work on them in parallel, collecting their outputs in order, and writes the previous
//! chunk's outputs meanwhile. A chunk worked on goes back to the reader to be filled again, so
//! a line costs no allocation of its own and is freed by no other thread. At most three chunks
//! are in use at once (one being read, one waiting, one being worked on) and three more kept
//! for reuse, with the outputs of two, so memory stays bounded whatever the input's length.

use rayon::prelude::*;
use std::io::{self, BufReader, Read, Write};
use std::sync::mpsc::{sync_channel, TryRecvError};

use super::lines::{hex, Line, Lines, Raw};
use super::output::{line, warn, LineError, Text};
use super::progress::Progress;

/// What the work on some lines made, to be written in their place: their output, their
/// warnings (in order), whether they all went well, how many lines and error rows they were,
/// and what else the command keeps of them.
pub struct Done<X> {
    pub out: Text<Vec<u8>>,
    pub warnings: Vec<String>,
    pub ok: bool,
    pub lines: usize,
    pub errors: usize,
    pub extra: X,
}

impl<X> Done<X> {
    pub fn out_bytes(&self) -> &[u8] {
        self.out.inner()
    }

    /// The row of a line that gives no result (`error` says why: not UTF-8, longer than the
    /// limit, bad JSON…), in `style`, with its message for standard error; the run fails.
    pub fn error_row(
        &mut self,
        style: Style,
        number: usize,
        place: &str,
        error: &str,
        line: Option<&Line>,
    ) {
        self.ok = false;
        self.errors += 1;
        self.warnings.push(message(place, error, line));
        // Writing into memory cannot fail.
        let _ = write_error_row(&mut self.out, style, number, error, line);
    }
}

/// The message for a line that gives no result: `line 3: longer than 16 MiB (17000000 bytes);
/// skipped`, `line 4 of list.txt: not JSON: …`.
pub fn message(place: &str, error: &str, line: Option<&Line>) -> String {
    match line {
        Some(Line::TooLong(length)) => format!("{place}: {error} ({length} bytes); skipped"),
        Some(Line::NotUtf8(_)) => format!("{place}: {error}; skipped"),
        _ => format!("{place}: {error}"),
    }
}

/// How a command writes the row of a line that gives no result, so that row n of the output
/// is always line n of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `{"line": N, "error": "…"}`, with the line's `"bytes"` in hexadecimal when it is not
    /// UTF-8 and its `"length"` when it is over the limit.
    Json,
    /// An empty line (`--get`: one line per input).
    Empty,
    /// `line N: error: …` (with the line shown, lossily, when it is not UTF-8); `blank` adds the
    /// empty line that ends each input's table.
    Text { blank: bool },
    /// The line as it was read (`check --fix`); an empty line for one over the limit, which is
    /// not kept.
    Unchanged,
}

/// Writes the row of line `number`, which gives no result because of `error` (see [`Style`]).
pub fn write_error_row<W: Write>(
    out: &mut Text<W>,
    style: Style,
    number: usize,
    error: &str,
    line: Option<&Line>,
) -> io::Result<()> {
    match style {
        Style::Json => out.json(&LineError {
            line: number,
            error,
            bytes: match line {
                Some(Line::NotUtf8(bytes)) => Some(hex(bytes)),
                _ => None,
            },
            length: match line {
                Some(Line::TooLong(length)) => Some(*length),
                _ => None,
            },
        }),
        Style::Empty => line!(out),
        Style::Text { blank } => {
            match line {
                Some(Line::NotUtf8(bytes)) => line!(
                    out,
                    "line {number}: error: {error}: {}",
                    String::from_utf8_lossy(bytes)
                )?,
                _ => line!(out, "line {number}: error: {error}")?,
            }
            if blank {
                line!(out)?;
            }
            Ok(())
        }
        Style::Unchanged => {
            match line {
                Some(Line::NotUtf8(bytes)) => out.bytes(bytes)?,
                Some(Line::Text(text)) => out.bytes(text.as_bytes())?,
                _ => {}
            }
            out.bytes(b"\n")
        }
    }
}

/// What a batch read: its lines (each gave one row) and how many of them were error rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub lines: usize,
    pub errors: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.lines += other.lines;
        self.errors += other.errors;
    }
}

/// How a batch runs: on how many threads, whether its text is raw, what its input is called
/// (in messages), and the progress line it advances.
pub struct Setup<'a> {
    pub jobs: usize,
    pub raw: bool,
    pub name: &'a str,
    pub progress: &'a Progress,
}

/// Says once that a byte order mark was taken off the input's first line.
pub fn say_bom(name: &str, progress: &Progress) {
    progress.suspend(|| {
        warn(format_args!(
            "{name} starts with a UTF-8 byte order mark; it is not part of the first line"
        ))
    });
}

impl<X: Default> Done<X> {
    pub fn new(raw: bool) -> Self {
        Done {
            out: Text::new(Vec::new(), raw),
            warnings: Vec::new(),
            ok: true,
            lines: 0,
            errors: 0,
            extra: X::default(),
        }
    }

    /// Empties it for the next line, keeping the buffer's memory.
    fn clear(&mut self) {
        self.out.inner_mut().clear();
        self.warnings.clear();
        self.ok = true;
        self.lines = 0;
        self.errors = 0;
        self.extra = X::default();
    }
}

/// Lines a worker takes at a time, writing their output into one buffer.
const PIECE_LINES: usize = 256;

/// Lines in a chunk: enough to share among the cores, and to keep the hand-over rare (each
/// chunk ends with the workers waiting for the last piece: with 2,048-line chunks of 64-line
/// pieces, `check --jobs 2` over 480k lines varied from 0.43 to 0.62 s, and with these from
/// 0.43 to 0.45 s).
const CHUNK_LINES: usize = 8192;

/// Bytes in a chunk, beyond which it is handed over early (long lines).
const CHUNK_BYTES: usize = 1 << 20;

/// What a batch reads: standard input or a file, buffered.
pub type Input = BufReader<Box<dyn Read + Send>>;

/// Reads every line of `input`, numbered from 1, and calls `work` on each (with a state from
/// `init`, one per thread, for caches), which writes into a [`Done`]; `emit` gets the
/// [`Done`]s in input order. `idle` is called when no more input is ready, before waiting for
/// it: a pipe then sees results as they come, while a bulk run writes in large blocks. `emit`
/// and `idle` share `sink` (the output). `work` writes exactly one row for each line (an error
/// row, [`Done::error_row`], for a line it cannot use), so that row n is line n.
///
/// With `jobs` at 1 everything happens on the calling thread, one line at a time.
pub fn run<C, X: Default + Send, S>(
    input: Input,
    setup: &Setup<'_>,
    init: impl Fn() -> C + Sync + Send,
    work: impl Fn(&mut C, usize, Line<'_>, &mut Done<X>) + Sync + Send,
    sink: &mut S,
    mut emit: impl FnMut(&mut S, &mut Done<X>) -> io::Result<()>,
    mut idle: impl FnMut(&mut S) -> io::Result<()>,
) -> io::Result<Counts> {
    let Setup {
        jobs,
        raw,
        name,
        progress,
    } = *setup;
    progress.reading(name);
    let counts = std::cell::Cell::new(Counts::default());
    // Each emitted piece is counted and advances the progress line, which steps aside for the
    // piece's messages.
    let mut emit = |sink: &mut S, done: &mut Done<X>| {
        let mut sum = counts.get();
        sum += Counts {
            lines: done.lines,
            errors: done.errors,
        };
        counts.set(sum);
        progress.add(done.lines);
        match done.warnings.is_empty() {
            true => emit(sink, done),
            false => progress.suspend(|| emit(sink, done)),
        }
    };
    let mut input = Lines::new(input);
    if jobs <= 1 {
        let mut state = init();
        let mut done = Done::new(raw);
        let mut buffer = Vec::new();
        loop {
            if input.buffer_is_empty() {
                idle(sink)?;
            }
            let Some((number, line)) = input.next_line(&mut buffer)? else {
                return Ok(counts.get());
            };
            if number == 1 && input.had_bom() {
                say_bom(name, progress);
            }
            done.lines += 1;
            work(&mut state, number, line, &mut done);
            emit(sink, &mut done)?;
            done.clear();
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(io::Error::other)?;
    let (sender, chunks) = sync_channel::<io::Result<Chunk>>(1);
    // Chunks written are handed back to the reader, which fills them again: their buffers are
    // allocated once, not once a chunk.
    let (give_back, given_back) = sync_channel::<Chunk>(CHUNKS_KEPT);
    let spare: Spare<X> = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut first = true;
            loop {
                let mut chunk = given_back.try_recv().unwrap_or_default();
                let read = read_chunk(&mut input, &mut chunk);
                if std::mem::take(&mut first) && input.had_bom() {
                    say_bom(name, progress);
                }
                let last = !matches!(read, Ok(()) if !chunk.lines.is_empty());
                // The receiver is gone when writing failed (a closed pipe): stop reading.
                if sender.send(read.map(|()| chunk)).is_err() || last {
                    return;
                }
            }
        });
        let result = (|| -> io::Result<Counts> {
            // The chunk worked on last, written while the next one is worked on.
            let mut pending: Vec<Done<X>> = Vec::new();
            loop {
                let chunk = match chunks.try_recv() {
                    Ok(chunk) => chunk,
                    Err(TryRecvError::Empty) => {
                        // Nothing to work on: write what is done, and let a pipe see it before
                        // waiting for more.
                        write_all(&mut pending, sink, &mut emit, &spare)?;
                        idle(sink)?;
                        chunks.recv().unwrap_or_else(|_| Ok(Chunk::default()))
                    }
                    Err(TryRecvError::Disconnected) => Ok(Chunk::default()),
                }?;
                if chunk.lines.is_empty() {
                    return write_all(&mut pending, sink, &mut emit, &spare).map(|()| counts.get());
                }
                let mut worked = Vec::new();
                let mut written = Ok(());
                pool.in_place_scope(|scope| {
                    scope.spawn(|_| {
                        worked = chunk
                            .lines
                            .par_chunks(PIECE_LINES)
                            .map_init(&init, |state, lines| {
                                let mut done = spare
                                    .lock()
                                    .ok()
                                    .and_then(|mut spare| spare.pop())
                                    .unwrap_or_else(|| Done::new(raw));
                                for (number, line) in lines {
                                    done.lines += 1;
                                    work(state, *number, line.line(&chunk.bytes), &mut done);
                                }
                                done
                            })
                            .collect();
                    });
                    written = write_all(&mut pending, sink, &mut emit, &spare);
                });
                written?;
                pending = worked;
                // A chunk that held a line of many megabytes is not kept at that size; and
                // when the reader has chunks enough (it made one meanwhile), this one is
                // dropped.
                let mut chunk = chunk;
                if chunk.bytes.capacity() > 2 * CHUNK_BYTES {
                    chunk.bytes = Vec::new();
                }
                let _ = give_back.try_send(chunk);
            }
        })();
        // Dropping the receiver ends a reader still waiting to hand over a chunk.
        drop(chunks);
        result
    })
}

/// Lines read for the workers: their bytes one after the other, and each line's number and
/// place among them.
#[derive(Default)]
struct Chunk {
    bytes: Vec<u8>,
    lines: Vec<(usize, Raw)>,
}

/// Chunks kept for reuse: as many as can be in use at once (one being read, one waiting, one
/// being worked on).
const CHUNKS_KEPT: usize = 3;

/// Writes and empties `pending`, in order.
fn write_all<S, X: Default>(
    pending: &mut Vec<Done<X>>,
    sink: &mut S,
    emit: &mut impl FnMut(&mut S, &mut Done<X>) -> io::Result<()>,
    spare: &Spare<X>,
) -> io::Result<()> {
    let mut written = Vec::new();
    for mut done in pending.drain(..) {
        emit(sink, &mut done)?;
        // An output of many megabytes (a long line's) is not kept at that size.
        if done.out.inner().capacity() <= SPARE_BYTES {
            done.clear();
            written.push(done);
        }
    }
    let mut spare = spare
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let room = SPARE_PIECES.saturating_sub(spare.len());
    spare.extend(written.into_iter().take(room));
    Ok(())
}

/// Outputs written and emptied, for the workers to fill again: a piece's output is allocated
/// a few times a run rather than once a piece, and is not freed by another thread than the
/// one that allocated it (freed memory that mimalloc has not yet given back counts in the
/// peak: with a new buffer a piece, `parse --json --jobs 2` peaked at 170 to 200 MiB).
type Spare<X> = std::sync::Mutex<Vec<Done<X>>>;

/// The outputs kept for reuse: those of two chunks.
const SPARE_PIECES: usize = 2 * CHUNK_LINES / PIECE_LINES;

/// The largest output kept for reuse.
const SPARE_BYTES: usize = 1 << 20;

/// Reads the next chunk of numbered lines into `chunk` (emptied first): full, or what the
/// input had ready (so that a pipe is not kept waiting for a chunk to fill); empty at the end
/// of input.
fn read_chunk(input: &mut Lines<Box<dyn Read + Send>>, chunk: &mut Chunk) -> io::Result<()> {
    chunk.bytes.clear();
    chunk.lines.clear();
    chunk.lines.reserve(CHUNK_LINES);
    while chunk.lines.len() < CHUNK_LINES && chunk.bytes.len() < CHUNK_BYTES {
        if !chunk.lines.is_empty() && input.buffer_is_empty() {
            break;
        }
        let Some(line) = input.next_raw(&mut chunk.bytes)? else {
            break;
        };
        chunk.lines.push(line);
    }
    Ok(())
}

/// The number of threads `--jobs` defaults to: the cores available.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
