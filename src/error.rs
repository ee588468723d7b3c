//! The errors a command can end with, and their exit codes.

use crate::rules::RulesError;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input from the user (arguments, files): exit code 2.
    #[error("{0}")]
    Input(String),
    /// Something went wrong while working (I/O): exit code 1.
    #[error("{0}")]
    Runtime(String),
    /// Ctrl-C: exit code 130, no output written.
    #[error("interrupted; no output was written")]
    Interrupted,
}

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) => 2,
            Error::Runtime(_) => 1,
            Error::Interrupted => 130,
        }
    }
}

impl From<RulesError> for Error {
    fn from(e: RulesError) -> Error {
        Error::Input(e.to_string())
    }
}

impl From<crate::engine::Cancelled> for Error {
    fn from(_: crate::engine::Cancelled) -> Error {
        Error::Interrupted
    }
}

impl From<crate::engine::Halt> for Error {
    fn from(halt: crate::engine::Halt) -> Error {
        match halt {
            crate::engine::Halt::TooLarge(e) => e.into(),
            crate::engine::Halt::Cancelled(e) => e.into(),
        }
    }
}

impl From<raven_core::quality::Stopped> for Error {
    fn from(stopped: raven_core::quality::Stopped) -> Error {
        match stopped {
            raven_core::quality::Stopped::Halt(h) => h.into(),
            raven_core::quality::Stopped::Stop(s) => s.into(),
        }
    }
}

impl From<raven_core::engine::generic::Stop> for Error {
    fn from(stop: raven_core::engine::generic::Stop) -> Error {
        use raven_core::engine::generic::Stop;
        match stop {
            Stop::Cancelled => Error::Interrupted,
            Stop::TooLarge { .. } => Error::Runtime(stop.to_string()),
            Stop::Endless { .. } => Error::Input(stop.to_string()),
        }
    }
}

impl From<crate::engine::TooLarge> for Error {
    fn from(e: crate::engine::TooLarge) -> Error {
        Error::Runtime(e.to_string())
    }
}

/// The result of a command.
pub type Result<T, E = Error> = std::result::Result<T, E>;
