//! The shape of every command's help, `-h` and `--help` alike:
//!
//! 1. one short paragraph: what the command does (`about`) and the command line most users
//!    run (`before_help`, "Typical use: memval ...");
//! 2. with `--help` only, the longer explanation (`before_long_help`);
//! 3. the usage and the flags: one line each with `-h` (an argument's first doc paragraph; flags
//!    marked `hide_short_help` only with `--help`), everything with `--help`;
//! 4. with `--help` only, examples and notes (`after_long_help`);
//! 5. last, the exit codes (`after_help`).
//!
//! A command states each part once; [`shape`] puts the short parts into the long help too, so
//! `--help` holds everything `-h` does and the exit codes are never missing from either.
//! `long_about` is not used: it would replace the opening paragraph.
//!
//! Help wraps to the terminal's width, or, when stdout is not a terminal, to `COLUMNS` or 100
//! columns (clap's `wrap_help`). A leaf: it imports nothing of the binary.

use clap::Command;

/// Opening paragraph, then usage, flags, and the closing sections.
const TEMPLATE: &str = "{about-with-newline}{before-help}{usage-heading} {usage}\n\n{all-args}{after-help}";

/// `cmd` and every command under it in the shape above.
pub fn shape(cmd: Command) -> Command {
    let typical = cmd.get_before_help().map(ToString::to_string);
    let exit_codes = cmd.get_after_help().map(ToString::to_string);
    let mut cmd = cmd.help_template(TEMPLATE);
    if let (Some(typical), Some(long)) = (&typical, cmd.get_before_long_help().map(ToString::to_string)) {
        cmd = cmd.before_long_help(format!("{typical}\n\n{long}"));
    }
    if let (Some(exit_codes), Some(long)) = (&exit_codes, cmd.get_after_long_help().map(ToString::to_string)) {
        cmd = cmd.after_long_help(format!("{long}\n\n{exit_codes}"));
    }
    cmd.mut_subcommands(shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(cmd: Command, flag: &str) -> String {
        let cmd = shape(cmd).term_width(60);
        cmd.try_get_matches_from(["x", flag]).unwrap_err().render().to_string()
    }

    #[test]
    fn short_parts_open_and_close_both_helps() {
        let cmd = || {
            Command::new("x")
                .about("Does x.")
                .before_help("Typical use: x --y")
                .before_long_help("Why x does what it does, at length.")
                .arg(clap::Arg::new("y").long("y").help("Short.").long_help("Short.\n\nAnd long."))
                .after_long_help("Examples:\n  x --y")
                .after_help("Exit codes: 0 always.")
        };
        let short = render(cmd(), "-h");
        let long = render(cmd(), "--help");
        assert!(short.starts_with("Does x.\nTypical use: x --y\n\nUsage: x"), "{short}");
        assert!(!short.contains("at length") && !short.contains("Examples") && !short.contains("And long"), "{short}");
        assert!(short.trim_end().ends_with("Exit codes: 0 always."), "{short}");
        assert!(long.starts_with("Does x.\nTypical use: x --y\n\nWhy x does"), "{long}");
        assert!(long.contains("And long") && long.contains("Examples:\n  x --y\n\nExit codes"), "{long}");
        assert!(long.trim_end().ends_with("Exit codes: 0 always."), "{long}");
    }
}
