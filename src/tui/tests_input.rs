//! The inspector as people drive it, through the key table and `App::apply`: Backspace that
//! arrives as ^H, the gallery's lesson and what was typed over an example, the history's limit,
//! inputs over the trace's limit, the command for a view and step, the help's filter, and where
//! a copy went. tests/inspector_tmux.rs drives the same in a real terminal.

use crossterm::event::{KeyCode, KeyModifiers};

use super::action::Action;
use super::app::{App, Overlay, Pane};
use super::clipboard::{Copied, Sent};
use super::history::{History, MAX_ENTRY};
use super::tests::{ctrl, key, press, screen, special};
use crate::gallery::gallery;

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, c);
    }
}

/// The status line: the last line of the screen.
fn status(app: &mut App, width: u16, height: u16) -> String {
    let s = screen(app, width, height);
    s.lines().last().unwrap_or("").to_owned()
}

/// ^H (ctrl-h) is what Backspace sends with `stty erase ^H`: in a text line it deletes, in a
/// component edit too; F1 opens the help from the line, and `?` from a pane.
#[test]
fn ctrl_h_deletes_in_a_text_line_and_f1_opens_the_help() {
    let mut app = App::new("https://example.com/ab", "");
    ctrl(&mut app, 'h');
    ctrl(&mut app, 'h');
    assert_eq!(app.input.text(), "https://example.com/");
    assert!(app.overlays.is_empty(), "ctrl-h opened {:?}", app.overlays);
    special(&mut app, KeyCode::Tab);
    typed(&mut app, "https://b/x");
    ctrl(&mut app, 'h');
    assert_eq!(app.base.text(), "https://b/");
    special(&mut app, KeyCode::F(1));
    assert_eq!(app.overlays, [Overlay::Help]);
    special(&mut app, KeyCode::Esc);
    // A component edit is a text line too.
    app.apply(Action::Focus(Pane::Components));
    app.lists[Pane::Components.index()].selected = 8; // pathname
    special(&mut app, KeyCode::Enter);
    let edit = app.edit.as_ref().expect("editing the pathname");
    assert_eq!(edit.editor.text(), "/");
    typed(&mut app, "zz");
    ctrl(&mut app, 'h');
    assert_eq!(app.edit.as_ref().map(|e| e.editor.text()), Some("/z"));
    special(&mut app, KeyCode::Esc);
    // From a pane, ? and ctrl-h open the help.
    key(&mut app, '?');
    assert_eq!(app.overlays, [Overlay::Help]);
    // The status line of a text line offers F1, not ctrl-h.
    special(&mut app, KeyCode::Esc);
    app.apply(Action::Focus(Pane::Input));
    let line = status(&mut app, 200, 50);
    assert!(
        line.contains("F1 help") && !line.contains("ctrl-h"),
        "{line}"
    );
}

/// Esc closes the lesson and keeps the example; the person's own URL from before the gallery
/// is then the newest history entry, which ↑ brings back, as the message says.
#[test]
fn esc_closes_the_lesson_and_the_own_url_is_one_up_away() {
    let mut app = App::new("https://mine.example/", "");
    ctrl(&mut app, 'n');
    let example = gallery()[0].input.clone();
    assert_eq!(app.input.text(), example);
    assert!(screen(&mut app, 120, 40).contains("Example 1/"));
    special(&mut app, KeyCode::Esc);
    assert!(app.gallery.is_none());
    let s = screen(&mut app, 120, 40);
    assert!(!s.contains("Example 1/"), "the banner stayed:\n{s}");
    assert_eq!(app.input.text(), example, "Esc changed the input");
    assert!(
        s.lines()
            .last()
            .unwrap_or("")
            .contains("Lesson closed. ↑ brings back your own URL from before the gallery."),
        "{s}"
    );
    special(&mut app, KeyCode::Up);
    assert_eq!(app.input.text(), "https://mine.example/");
    // With nothing else open, Esc says how to quit again.
    special(&mut app, KeyCode::Esc);
    assert!(status(&mut app, 120, 40).contains("Nothing to close"));
}

/// An example edited and then left with ctrl-n is kept in the history, and the status line
/// says so; clearing the input leaves the gallery, and the welcome screen offers the own URL.
#[test]
fn nothing_typed_over_an_example_is_dropped() {
    let mut app = App::new("https://mine.example/", "");
    ctrl(&mut app, 'n');
    typed(&mut app, "zz");
    let edited = app.input.text().to_owned();
    let n = gallery().len();
    let title = format!("Example 1/{n}, edited since");
    assert!(screen(&mut app, 120, 40).contains(&title));
    ctrl(&mut app, 'n');
    assert_eq!(app.input.text(), gallery()[1].input);
    let line = status(&mut app, 200, 40);
    assert!(
        line.contains(&format!(
            "Example 2/{n}. Your edit of example 1 is in the history (↑ in the Input)."
        )),
        "{line}"
    );
    assert_eq!(
        app.history.entries.last().map(|e| e.input.as_str()),
        Some(edited.as_str())
    );
    // ctrl-u on the line (the cursor at its end) clears it: the gallery ends.
    ctrl(&mut app, 'u');
    assert_eq!(app.input.text(), "");
    assert!(app.gallery.is_none());
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("Welcome to urlscope"), "{s}");
    assert!(
        s.contains("↑ brings back your last URL: https://mine.example/"),
        "{s}"
    );
    special(&mut app, KeyCode::Up);
    assert_eq!(app.input.text(), "https://mine.example/");
    special(&mut app, KeyCode::Up);
    assert_eq!(app.input.text(), edited);
}

/// ↑ inside the gallery leaves it: a pair from the history is not the lesson's.
#[test]
fn history_in_the_gallery_leaves_it() {
    let mut app = App::new("https://mine.example/", "");
    ctrl(&mut app, 'n');
    special(&mut app, KeyCode::Up);
    assert!(app.gallery.is_none());
    assert_eq!(app.input.text(), "https://mine.example/");
    assert!(!screen(&mut app, 120, 40).contains("Example 1/"));
}

/// Enter says whether the pair was kept: a pair over 64 KiB is not, with the limit named,
/// and is not in the file after a restart; one at the limit is.
#[test]
fn the_history_limit_is_stated_where_it_applies() {
    let dir = std::env::temp_dir().join(format!("urlscope-input-{}", std::process::id()));
    let file = dir.join("history");
    let _ = std::fs::remove_dir_all(&dir);
    let long = format!("https://example.com/{}", "a".repeat(70 * 1024));
    let mut app = App::with_history(&long, "", History::open(Some(file.clone())));
    special(&mut app, KeyCode::Enter);
    let line = status(&mut app, 250, 40);
    assert!(
        line.contains("Not remembered: the history keeps pairs up to 64 KiB; this one is 71 KiB."),
        "{line}"
    );
    app.finish().expect("saved");
    assert!(History::open(Some(file.clone())).entries.is_empty());
    let fits = format!("https://example.com/{}", "a".repeat(MAX_ENTRY - 20 - 10));
    let mut app = App::with_history(&fits, "https://b/", History::open(Some(file.clone())));
    special(&mut app, KeyCode::Enter);
    assert!(status(&mut app, 250, 40).contains("Remembered with its base"));
    assert_eq!(History::open(Some(file.clone())).entries.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
    // Without a history file, nothing claims "after a restart".
    let mut app = App::new("https://example.com/", "");
    special(&mut app, KeyCode::Enter);
    let line = status(&mut app, 250, 40);
    assert!(
        line.contains("Remembered for this session only") && !line.contains("restart"),
        "{line}"
    );
}

/// The trace is recorded up to 1 MiB, as docs/hostile-input.md says; a paste past it says so on screen,
/// and the input is still inspected.
#[test]
fn a_paste_over_the_trace_limit_is_said_on_screen() {
    assert_eq!(crate::MAX_TRACED_INPUT, 1 << 20);
    let docs = include_str!("../../docs/hostile-input.md").replace('\n', " ");
    assert!(
        docs.contains("The inspector records the trace for inputs up to 1 MiB"),
        "the limit in docs/hostile-input.md is not the code's"
    );
    let mut app = App::new("https://example.com/", "");
    app.apply(Action::Paste("a".repeat(crate::MAX_TRACED_INPUT - 19)));
    assert!(app.report.trace.is_none());
    let length = crate::MAX_TRACED_INPUT + 1;
    let line = status(&mut app, 250, 40);
    assert!(
        line.contains(&format!(
            "Not traced: the input is {length} bytes, over the 1048576 (1 MiB) the trace is recorded for"
        )),
        "{line}"
    );
    // One byte less: traced again.
    ctrl(&mut app, 'h');
    assert!(app.report.trace.is_some());
    assert_eq!(
        app.report.url.as_ref().map(|u| u.href().len()),
        Some(length - 1)
    );
}

/// `--view trace --step 12` opens step 12 in step mode; the help shows the command for what is
/// on screen, and `y` there copies it; a step past the trace is refused with its length.
#[test]
fn a_view_and_step_open_from_the_command_line_and_the_help_gives_the_command() {
    let mut app = App::new("https://exa%6Dple.com/a?b", "https://b/");
    app.open_at(Some(Pane::Trace), Some(12)).expect("step 12");
    assert!(app.step_mode);
    assert_eq!((app.focus, app.step()), (Pane::Trace, 12));
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("Record after step 12"), "{s}");
    assert_eq!(
        app.handout().unwrap_or_default(),
        "urlscope 'https://exa%6Dple.com/a?b' --base 'https://b/' --view trace --step 12"
    );
    special(&mut app, KeyCode::F(1));
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("This view as a command (y copies it)"), "{s}");
    assert!(s.contains("--view trace --step 12"), "{s}");
    key(&mut app, 'y');
    assert_eq!(
        app.pending_copy.as_ref().map(|c| c.text.as_str()),
        Some(app.handout().unwrap_or_default().as_str())
    );
    // Another view, a quote in the input, and no step.
    let mut app = App::new("https://a/it's", "");
    app.open_at(Some(Pane::Host), None).expect("the Host pane");
    assert_eq!(app.focus, Pane::Host);
    assert_eq!(
        app.handout().unwrap_or_default(),
        r"urlscope 'https://a/it'\''s' --view host"
    );
    // Refusals.
    let mut app = App::new("https://a/", "");
    let steps = app.trace().map_or(0, crate::trace::Trace::len);
    assert_eq!(
        app.open_at(None, Some(steps)),
        Err(format!(
            "--step {steps}: the trace of this input has {steps} steps, 0 to {}",
            steps - 1
        ))
    );
    assert!(app
        .open_at(Some(Pane::Host), Some(1))
        .is_err_and(|e| e.contains("--view trace")));
    let mut app = App::new("a", "not a base");
    assert!(app
        .open_at(None, Some(0))
        .is_err_and(|e| e.contains("no trace (the base fails to parse")));
}

/// `/` in the help filters it by typing: only lines with the text stay, under their titles;
/// Backspace (and ^H) edit the filter, Enter keeps it, Esc clears it and then closes.
#[test]
fn the_help_filters_by_typing() {
    let mut app = App::new("https://example.com/", "");
    special(&mut app, KeyCode::F(1));
    key(&mut app, '/');
    typed(&mut app, "unicode");
    assert_eq!(app.help_filter, "unicode");
    let lines = app.help_lines();
    let kept: Vec<_> = lines
        .iter()
        .filter(|(t, _, _)| t.is_none())
        .skip(1)
        .collect();
    assert!(!kept.is_empty());
    for (_, keys, what) in &kept {
        assert!(
            (keys.clone() + what).to_lowercase().contains("unicode"),
            "{keys} {what}"
        );
    }
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("Keys · filter: unicode"), "{s}");
    assert!(s.contains("copy the host's Unicode form"), "{s}");
    assert!(!s.contains("mouse capture"), "{s}");
    // j and q type into the filter; ^H deletes.
    typed(&mut app, "jq");
    press(&mut app, KeyCode::Char('h'), KeyModifiers::CONTROL);
    assert_eq!(app.help_filter, "unicodej");
    assert!(app.overlays == [Overlay::Help] && !app.quit);
    assert!(screen(&mut app, 120, 40).contains("No key matches “unicodej”"));
    special(&mut app, KeyCode::Backspace);
    special(&mut app, KeyCode::Enter);
    assert!(!app.help_filtering);
    key(&mut app, 'j');
    assert_eq!(app.help_filter, "unicode", "j scrolls again after Enter");
    special(&mut app, KeyCode::Esc);
    assert!(app.help_filter.is_empty() && app.overlays == [Overlay::Help]);
    special(&mut app, KeyCode::Esc);
    assert!(app.overlays.is_empty());
}

/// At 80x24 a status message takes the line before the fixed hint does, so that a copy's
/// message shows where the text went.
#[test]
fn a_message_takes_the_status_line_before_the_hint() {
    let mut app = App::new("https://example.com/", "");
    let copied = Copied::Terminal {
        sent: Sent::Tmux,
        why: "no DISPLAY or WAYLAND_DISPLAY".to_owned(),
    };
    app.say(copied.status("href", "https://example.com/"));
    let line = status(&mut app, 80, 24);
    assert!(
        line.starts_with(
            " Copied to tmux's buffer (the terminal's clipboard if tmux and it allow)"
        ),
        "{line}"
    );
    assert!(!line.contains("F1 help"), "{line}");
    // A short message leaves room for the hint.
    app.say("Edit dropped.");
    let line = status(&mut app, 80, 24);
    assert!(
        line.contains("Edit dropped.") && line.contains("F1 help"),
        "{line}"
    );
}

/// "Copied" only where something confirmed the copy: an OSC 52 the terminal may ignore, or
/// one tmux drops, is said as sent.
#[test]
fn copied_is_said_only_with_reason() {
    let why = "no DISPLAY or WAYLAND_DISPLAY".to_owned();
    let status = |sent: Sent| {
        Copied::Terminal {
            sent,
            why: why.clone(),
        }
        .status("href", "https://a/")
    };
    assert!(status(Sent::Tmux).starts_with("Copied to tmux's buffer"));
    let osc52 = status(Sent::Osc52);
    assert!(
        osc52
            .starts_with("Sent to the terminal by OSC 52; it copies if the terminal allows OSC 52"),
        "{osc52}"
    );
    let refused = status(Sent::Osc52InTmux("no server running".to_owned()));
    assert!(
        refused.starts_with("Not copied unless tmux has `set-clipboard on`"),
        "{refused}"
    );
    assert!(Copied::Clipboard { also: None }
        .status("href", "https://a/")
        .starts_with("Copied to the clipboard (kept after urlscope ends): the href https://a/"));
}

/// The help draws a long input's command as its length, and `y` still copies all of it.
#[test]
fn a_long_inputs_command_is_copied_whole() {
    let input = format!("https://example.com/{}", "a".repeat(3000));
    let mut app = App::new(&input, "");
    special(&mut app, KeyCode::F(1));
    let lines = app.help_lines();
    assert_eq!(
        lines[1].2,
        "(the input and base are 3020 bytes: y copies the whole command)"
    );
    key(&mut app, 'y');
    assert_eq!(
        app.pending_copy.map(|c| c.text),
        Some(format!("urlscope '{input}' --view components"))
    );
}

/// The arguments bash hands a program for the command `handout` (which starts "urlscope ").
fn argv_through_bash(handout: &str) -> Vec<String> {
    let words = handout
        .strip_prefix("urlscope ")
        .unwrap_or_else(|| panic!("not a urlscope command: {handout}"));
    let output = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("set -- {words}; printf '%s\\0' \"$@\""))
        .env("LC_ALL", "C")
        .output()
        .expect("bash runs");
    assert!(output.status.success(), "bash refused {handout}");
    String::from_utf8(output.stdout)
        .expect("UTF-8 arguments")
        .split_terminator('\0')
        .map(str::to_owned)
        .collect()
}

/// The help's command reopens the same screen from a shell: bash hands the binary exactly the
/// input and base of every lesson of the gallery (tabs and newlines, bidi controls, quotes,
/// backslashes), opened at step 1 of the trace, and of inputs with controls of every kind.
#[test]
#[cfg_attr(windows, ignore = "runs the command in bash, a Unix shell")]
fn the_command_gives_the_binary_exactly_the_input() {
    let mut pairs: Vec<(String, String)> = gallery()
        .iter()
        .map(|e| (e.input.clone(), e.base.clone().unwrap_or_default()))
        .collect();
    for input in [
        "ht\ttps://exa\nmple.com/",
        "https://example.com/\u{202E}gnp.exe",
        "https://a/it's \\x41 \"q\"",
        "https://a/\u{85}\u{7F}\u{1B}[31m\r\u{200B}\u{FEFF}é🦀",
        // Words the command line would read as an option or a subcommand: after `--`.
        "-x",
        "--help",
        "parse",
    ] {
        pairs.push((input.to_owned(), "https://b/\u{2066}x\t".to_owned()));
    }
    for (input, base) in pairs {
        let mut app = App::new(&input, &base);
        let after_dashes =
            input.starts_with('-') || crate::display::SUBCOMMANDS.contains(&input.as_str());
        let mut expected = match after_dashes {
            true => Vec::new(),
            false => vec![input.clone()],
        };
        if !base.is_empty() {
            expected.extend(["--base".to_owned(), base.clone()]);
        }
        expected.extend(["--view".to_owned(), "trace".to_owned()]);
        if app.open_at(Some(Pane::Trace), Some(1)).is_ok() {
            expected.extend(["--step".to_owned(), "1".to_owned()]);
        } else {
            app.open_at(Some(Pane::Trace), None)
                .expect("the Trace pane");
        }
        if after_dashes {
            expected.extend(["--".to_owned(), input.clone()]);
        }
        let command = app.handout().unwrap_or_default();
        assert_eq!(argv_through_bash(&command), expected, "{command}");
        // What reaches the screen and the clipboard shows every code point as itself.
        assert!(
            !command.chars().any(crate::display::needs_escape),
            "{command:?}"
        );
    }
    let app = App::new("ht\ttps://exa\nmple.com/", "");
    assert_eq!(
        app.handout().unwrap_or_default(),
        r"urlscope $'ht\ttps://exa\nmple.com/' --view components"
    );
}

/// U+0000 ends a program's argument, so no command opens an input holding it: `y` copies
/// nothing and says why, and the help says the same where the command would be.
#[test]
fn an_input_holding_nul_has_no_command_and_y_says_why() {
    let mut app = App::new("https://a/\0b", "");
    app.open_at(Some(Pane::Host), None).expect("the Host pane");
    assert_eq!(app.handout(), None);
    // The help shows the command (none here) and `y` in it copies it.
    special(&mut app, KeyCode::F(1));
    let s = screen(&mut app, 200, 60);
    assert!(s.contains("no command: U+0000"), "{s}");
    key(&mut app, 'y');
    assert!(app.pending_copy.is_none());
    assert!(
        app.message
            .as_ref()
            .is_some_and(|m| m.text.contains("U+0000")),
        "{:?}",
        app.message.as_ref().map(|m| &m.text)
    );
}

/// A setter lesson cannot be reopened by a command (the inspector opens no setter): the help
/// says so under the command and gives `parse --set`, whose words bash hands over exactly.
#[test]
#[cfg_attr(windows, ignore = "runs the command in bash, a Unix shell")]
fn the_help_says_a_setter_run_has_no_command() {
    let position = gallery()
        .iter()
        .position(|e| e.set.is_some())
        .expect("a setter lesson");
    let mut app = App::new("", "");
    app.open_example(position);
    let run = app.setter_run.as_ref().expect("the setter ran");
    let (component, value, before) = (run.component, run.value.clone(), run.before.clone());
    let lines = app.help_lines();
    let note = &lines[2].2;
    let prefix = format!("No command reopens this {component} setter's run; its result: ");
    let command = note
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{note}"));
    assert_eq!(
        argv_through_bash(&command.replace("urlscope parse ", "urlscope ")),
        ["--set".to_owned(), format!("{component}={value}"), before]
    );
}

/// Lines pasted together are one input, which the parser reads as one URL without its
/// newlines: the status line says so, with the commands that take one URL a line.
#[test]
fn a_multi_line_paste_is_said_to_be_one_url() {
    let mut app = App::new("", "");
    app.apply(Action::Paste("https://a/x\nhttps://b/y\n".to_owned()));
    assert_eq!(app.input.text(), "https://a/x\nhttps://b/y\n");
    assert_eq!(
        app.report.url.as_ref().map(|u| u.href().to_owned()),
        Some("https://a/xhttps://b/y".to_owned())
    );
    assert_eq!(
        app.message(),
        Some(
            "Pasted 2 lines into the Input as one URL: the basic URL parser removes every tab \
             and newline (step 3). One URL a line: urlscope check, or urlscope parse -."
        )
    );
    // One line with its newline is one URL: nothing to say.
    let mut app = App::new("", "");
    app.apply(Action::Paste("https://a/x\n".to_owned()));
    assert_eq!(app.message(), None);
}
