//! The call journal: one JSON line per tool call, so that an agent's test suite can assert on
//! what the agent actually did. Written whole-line under a lock, never read by the server.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use chrono::{SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::call::{CallOutput, Decision};

/// One journal line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub time: String,
    pub transport: String,
    pub session: Option<String>,
    pub tool: String,
    pub scenario: Option<String>,
    pub forced: bool,
    pub received: Value,
    pub arguments: Value,
    pub is_error: bool,
    pub micros: u64,
    pub result: Value,
}

impl Entry {
    pub fn new(transport: &str, session: Option<String>, output: &CallOutput) -> Self {
        let (scenario, forced) = match &output.decision {
            Decision::Scenario { name, forced } => (Some(name.clone()), *forced),
            _ => (None, false),
        };
        Self {
            time: Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true),
            transport: transport.to_string(),
            session,
            tool: output.tool.clone(),
            scenario,
            forced,
            received: output.received.clone(),
            arguments: output.arguments.clone(),
            is_error: output.is_error,
            micros: output.micros,
            result: output
                .value
                .clone()
                .unwrap_or_else(|| Value::String(output.text.clone())),
        }
    }
}

#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
}

impl Journal {
    pub fn open(path: &Path) -> std::io::Result<Self> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Self {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends the entry as one line in one write.
    pub fn append(&self, entry: &Entry) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(entry).map_err(std::io::Error::other)?;
        line.push(b'\n');
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        file.write_all(&line)
    }
}

/// Every entry of the journal at `path`; lines that do not parse are skipped.
pub fn read(path: &Path) -> std::io::Result<Vec<Entry>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}
