//! `urlscope generate`: shell completions (clap_complete) and the man page (clap_mangen), both
//! from the clap definition that `--help` prints, so they follow every option as it changes.

use clap::{Args, CommandFactory, ValueEnum};
use clap_complete::Shell;
use std::io::{self, Write};

/// What `urlscope generate` prints.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// What to print: a shell's completion script (complete-SHELL), or the manual page in roff
    /// (man), every subcommand's options included.
    #[arg(value_enum, value_name = "WHAT")]
    what: What,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum What {
    CompleteBash,
    CompleteZsh,
    CompleteFish,
    CompletePowershell,
    CompleteElvish,
    Man,
}

/// Prints the script or the page to `out` as it is: it is data for a shell or for man, never
/// escaped for a terminal.
pub fn generate_command(args: &GenerateArgs, out: &mut impl Write) -> io::Result<bool> {
    let mut command = super::Cli::command();
    let shell = match args.what {
        What::CompleteBash => Shell::Bash,
        What::CompleteZsh => Shell::Zsh,
        What::CompleteFish => Shell::Fish,
        What::CompletePowershell => Shell::PowerShell,
        What::CompleteElvish => Shell::Elvish,
        What::Man => {
            man_page(command, out)?;
            out.flush()?;
            return Ok(true);
        }
    };
    let name = command.get_name().to_owned();
    // clap_complete writes with `write_all(..).expect(..)`: render into memory, where a write
    // cannot fail, so that a closed pipe is an error returned here and not a panic.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, name, &mut script);
    out.write_all(&script)?;
    out.flush()?;
    Ok(true)
}

/// One page: urlscope's own sections (name, synopsis, description, options), then a section
/// per subcommand with its synopsis, description and options, their headings one level down,
/// then the version. clap_mangen 0.2 renders one command per page, and its list of subcommands
/// names pages (urlscope-parse(1)) that do not exist: one file is what
/// `urlscope generate man > urlscope.1` installs.
fn man_page(mut command: clap::Command, out: &mut impl Write) -> io::Result<()> {
    // Built, each subcommand knows its full name ("urlscope parse") and the global options.
    command.build();
    let mut page = Vec::new();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        let name = sub.get_bin_name().unwrap_or_else(|| sub.get_name());
        let man = clap_mangen::Man::new(sub.clone());
        let mut section = Vec::new();
        man.render_synopsis_section(&mut section)?;
        man.render_description_section(&mut section)?;
        man.render_options_section(&mut section)?;
        writeln!(page, ".SH \"{}\"", name.to_uppercase())?;
        // roff escapes a text line that begins with a dot, so a line that starts ".SH " is a
        // heading clap_mangen wrote.
        for line in String::from_utf8_lossy(&section).lines() {
            match line.strip_prefix(".SH ") {
                Some(heading) => writeln!(page, ".SS {heading}")?,
                None => writeln!(page, "{line}")?,
            }
        }
    }
    man.render_version_section(&mut page)?;
    // Each render call begins with roff's definition of the apostrophe string; once is enough.
    let page = String::from_utf8_lossy(&page);
    out.write_all(APOSTROPHE_PREAMBLE.as_bytes())?;
    out.write_all(page.replace(APOSTROPHE_PREAMBLE, "").as_bytes())
}

/// What the roff crate writes first on every page (see its `APOSTROPHE_PREABMLE`).
const APOSTROPHE_PREAMBLE: &str = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";
