//! The `sololab` binary: parses the command line and runs the command. Errors, those of the
//! command line included, are printed on one line on stderr (`sololab: error: ...`), with exit
//! status 2; `--help` and `--version` print on stdout with exit status 0. No argument can make
//! it panic: arguments are read as OS strings (a name that is not UTF-8 is an error naming it),
//! and a closed standard output or error is not a crash.

mod cli;
mod cli_search;
mod cli_tuning;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match cli::Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help, --version: printed as usual on stdout (a closed stdout is not an error).
            return match e.print() {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => fail(&format!("cannot write to standard output: {e}")),
            };
        }
        Err(e) => {
            let shown: Vec<String> = args
                .iter()
                .skip(1)
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            return fail(&cli::usage_error(&e, &shown));
        }
    };
    match cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // `{:#}` joins the context chain with ": "; messages from parsers may hold newlines.
            let message = format!("{e:#}");
            fail(&message.split_whitespace().collect::<Vec<_>>().join(" "))
        }
    }
}

/// Prints `message` as one error line on stderr (ignored if stderr is closed); exit status 2.
fn fail(message: &str) -> ExitCode {
    let _ = writeln!(std::io::stderr().lock(), "sololab: error: {message}");
    ExitCode::from(2)
}
