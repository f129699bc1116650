//! The `sololab` binary: parses the command line and runs the command. Errors are printed on
//! one line on stderr, with exit status 2.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    match cli::run(cli::Cli::parse()) {
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
