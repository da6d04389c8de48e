use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match schema_lint::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                schema_lint::exit::ERROR
            } else {
                0
            });
        }
    };
    let outcome = schema_lint::execute(cli);
    // A closed pipe (`schema-lint | head`) is not an error worth a panic.
    let _ = std::io::stdout()
        .lock()
        .write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr()
        .lock()
        .write_all(outcome.stderr.as_bytes());
    ExitCode::from(outcome.code)
}
