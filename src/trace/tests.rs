//! The packed trace: its size per input byte, and the replay's moves over a long trace.

use super::Recorder;
use crate::url::state::Phase;
use crate::Url;

/// The five shapes of `benches/trace_cost.rs`, of about `n` bytes.
fn shapes(n: usize) -> [(&'static str, String); 5] {
    [
        (
            "path segments",
            format!("https://example.com/{}", "seg/".repeat(n / 4)),
        ),
        (
            "query",
            format!("https://example.com/?{}", "a=b&".repeat(n / 4)),
        ),
        (
            "fragment",
            format!("https://example.com/#{}", "x".repeat(n)),
        ),
        ("long host", format!("https://{}.com/", "a.".repeat(n / 2))),
        (
            "dot segments",
            format!("https://example.com/{}", "a/../".repeat(n / 5)),
        ),
    ]
}

fn trace(input: &str, base: Option<&str>) -> super::Trace {
    let base = base.map(|b| Url::parse(b, None).expect("a base"));
    let mut recorder = Recorder::new();
    let _ = Url::parse_with(input, base.as_ref(), encoding_rs::UTF_8, &mut recorder);
    recorder.finish(input, Default::default())
}

/// A trace takes at most 24 bytes per input byte on the benchmark's shapes (the memory a 16 MiB
/// input may take in the inspector), and walking it end to end at most 8 more.
#[test]
fn a_trace_takes_at_most_24_bytes_per_input_byte() {
    for (name, input) in shapes(256 << 10) {
        let trace = trace(&input, None);
        let per_byte = trace.heap_bytes() as f64 / input.len() as f64;
        assert!(
            per_byte <= 24.0,
            "{name}: {per_byte:.1} bytes per input byte"
        );
        // The shapes are all steps: a step per input byte at least.
        assert!(trace.len() > input.len(), "{name}: {} steps", trace.len());
        let mut cursor = trace.cursor();
        cursor.seek(trace.len() - 1);
        let replay = cursor.heap_bytes() as f64 / input.len() as f64;
        cursor.seek(0);
        assert!(
            replay <= 40.0,
            "{name}: replay {replay:.1} bytes per input byte"
        );
    }
}

/// Steps decoded in order, one by one from their checkpoint, and in the views agree, and the
/// pointer is a code point offset of the input: the code point there is c (the input has no
/// tab, newline or leading control for the parser to remove).
#[test]
fn steps_decoded_in_order_or_from_a_checkpoint_agree() {
    let input = format!(
        "https://ü.example/{}?{}#{}",
        "é/ß/../".repeat(200),
        "q=€&".repeat(200),
        "𝔘".repeat(200)
    );
    let trace = trace(&input, None);
    let chars: Vec<char> = input.chars().collect();
    let steps: Vec<_> = trace.steps().iter().collect();
    assert_eq!(steps.len(), trace.len());
    assert_eq!(trace.steps().into_iter().len(), trace.len());
    let mut state_steps = 0;
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(trace.step(i), *step, "step {i}");
        let view = trace.view(i);
        assert_eq!(
            (view.phase, view.pointer, view.c),
            (step.phase, step.pointer, step.c)
        );
        if let (Phase::State(_), Some(c)) = (step.phase, step.c) {
            assert_eq!(chars.get(step.pointer), Some(&c), "step {i}");
            state_steps += 1;
        }
    }
    assert!(state_steps > chars.len(), "{state_steps} steps");
}

/// Walking a long trace forward, backward step by step and by jumps gives at sampled steps the
/// buffer and record that a fresh replay from step 0 gives, on traces that cross many
/// checkpoints and save many values (cleared buffers, shortened paths, query sets).
#[test]
fn walking_a_long_trace_back_and_forth_gives_the_replayed_states() {
    let long = [
        shapes(20 << 10).map(|(_, input)| input).to_vec(),
        vec![
            format!("file:///C:/{}", "é/../../".repeat(2000)),
            format!("https://u@v:p@x@h:1/{}", "a/./b/%2e%2E/c?".repeat(500)),
            format!(
                "sc:{}?{}#{}",
                "o".repeat(3000),
                "q".repeat(3000),
                "f".repeat(3000)
            ),
            format!("{}http://h/x", "\t".repeat(300)),
        ],
    ]
    .concat();
    for input in &long {
        let name: String = input.chars().take(30).collect();
        for base in [None, Some("http://b/p/q?r#s")] {
            let trace = trace(input, base);
            let n = trace.len();
            let sampled: Vec<usize> = (0..n).step_by(n / 37 + 1).chain([n - 1]).collect();
            let expected: Vec<_> = sampled
                .iter()
                .map(|&i| {
                    let mut fresh = trace.cursor();
                    fresh.seek(i);
                    (fresh.buffer().to_owned(), fresh.record().clone())
                })
                .collect();
            let mut cursor = trace.cursor();
            let check = |i: usize, buffer: &str, record: &crate::url::record::UrlRecord| {
                if let Ok(at) = sampled.binary_search(&i) {
                    assert_eq!(buffer, expected[at].0, "{name:?}: buffer after step {i}");
                    assert_eq!(*record, expected[at].1, "{name:?}: record after step {i}");
                }
            };
            for i in (0..n).chain((0..n).rev()) {
                cursor.seek(i);
                check(i, cursor.buffer(), cursor.record());
            }
            for k in 0..200 {
                let i = (k * 7919) % n;
                let (buffer, record) = trace.state_after(i);
                check(i, &buffer, &record);
            }
            for &i in sampled.iter().rev() {
                let (buffer, record) = trace.state_after(i);
                check(i, &buffer, &record);
            }
        }
    }
}

/// The ruler of `input`: a letter per code point for the field of the URL record it ended up
/// in, `·` for nowhere.
fn ruler(input: &str, base: Option<&str>) -> String {
    use super::Destination as D;
    trace(input, base)
        .destinations()
        .into_iter()
        .map(|d| match d {
            Some(D::Scheme) => 's',
            Some(D::Username) => 'u',
            Some(D::Password) => 'w',
            Some(D::Host) => 'h',
            Some(D::Port) => 'n',
            Some(D::Path) => 'p',
            Some(D::Query) => 'q',
            Some(D::Fragment) => 'f',
            None => '·',
        })
        .collect()
}

/// Each code point goes where the parse put it, on the quirks a lesson teaches: `c:` after
/// `file://` is no host (the host is empty, the path `/c:/x`), the first of two `@` is in the
/// username, `..` removes what it removes, a default port and `localhost` go nowhere, a tab
/// removed goes nowhere, and a relative input's code points go where they go with the base.
#[test]
fn each_code_point_goes_where_the_parse_put_it() {
    let cases = [
        ("file://c:/x", None, "sssss··pppp"),
        ("http://a@b@c/", None, "sssss··uuuuhp"),
        ("http://a:b@c@d/", None, "sssss··uwwwwuhp"),
        ("http://u:p@h:81/p?q#f", None, "sssss··uwwuhnnnppqqff"),
        ("http://u:@h:80/", None, "sssss··u·uh···p"),
        ("http://:@h/", None, "sssss····hp"),
        ("https:example.com", None, "sssssshhhhhhhhhhh"),
        ("../x?y#z", Some("http://h/a/b"), "··ppqqff"),
        ("#x", Some("http://h/a"), "ff"),
        ("//other/y", Some("http://h/a"), "··hhhhhpp"),
        ("file:///C|/x", None, "sssss··ppppp"),
        ("file:C|/x", None, "ssssspppp"),
        (
            " \thttp://ex\tample.com/a b ",
            None,
            "··sssss··hh·hhhhhhhhhpppp·",
        ),
        ("http://a/b/../c", None, "sssss··h·····pp"),
        ("http://a/b/./c/..", None, "sssss··hpp····p··"),
        ("file://localhost/x", None, "sssss···········pp"),
        ("mailto:a b?c", None, "ssssssspppqq"),
        ("http://[::1]:8080/", None, "sssss··hhhhhnnnnnp"),
        ("HTTP://EX.com\\a\\b", None, "sssss··hhhhhhpppp"),
        // A failure: the host's code points are the host the parse failed on.
        ("https://exa mple.com/", None, "ssssss··hhhhhhhhhhhh·"),
        ("http://a:8x/", None, "sssss··h·n··"),
    ];
    for (input, base, expected) in cases {
        assert_eq!(ruler(input, base), expected, "{input:?} against {base:?}");
    }
}
