use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Past a file size limit (`ulimit -f`) a write must fail (`EFBIG`) and be reported and undone
    // like any failed write, not kill the process halfway through it (the default of
    // `SIGXFSZ`), which left a temporary file and said nothing. The servers this process starts
    // get the default back (`workspace::live::children::own_group`).
    #[cfg(unix)]
    // SAFETY: signal(2) sets the disposition of one signal, before any other thread runs.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
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
