//! The `sololab` binary: parses the command line and runs the command. Errors, those of the
//! command line included, are printed on one line on stderr (`sololab: error: ...`), with exit
//! status 2; `--help` and `--version` print on stdout with exit status 0.

mod cli;
mod cli_search;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help, --version: printed as usual on stdout.
            return match e.print() {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::from(2),
            };
        }
        Err(e) => {
            let args: Vec<String> = std::env::args().skip(1).collect();
            eprintln!("sololab: error: {}", cli::usage_error(&e, &args));
            return ExitCode::from(2);
        }
    };
    match cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // `{:#}` joins the context chain with ": "; messages from parsers may hold newlines.
            let message = format!("{e:#}");
            let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
            eprintln!("sololab: error: {message}");
            ExitCode::from(2)
        }
    }
}
