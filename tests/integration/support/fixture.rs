//! A server running in process on port 0 over its own copy of the repository's tools.

use std::sync::Arc;

use careem_mcp::engine::Engine;
use careem_mcp::server::{RunningServer, ServerOptions, start_http};
use serde_json::Value;

use super::{Client, Project, assert_marina, engine, http_client};

/// A running server over its own copy of the tools and its own overrides file.
pub struct Fixture {
    pub project: Project,
    pub server: RunningServer,
}

impl Fixture {
    pub async fn start() -> Self {
        Self::with(ServerOptions::default()).await
    }

    pub async fn with(options: ServerOptions) -> Self {
        let project = Project::copy_of_repo();
        let engine = engine(&project);
        Self::serve(project, engine, options).await
    }

    /// `engine` served over `project` (port 0 whatever `options` say).
    pub async fn serve(project: Project, engine: Engine, options: ServerOptions) -> Self {
        let server = start_http(Arc::new(engine), ServerOptions { port: 0, ..options })
            .await
            .expect("the server starts");
        Self { project, server }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.server.addr)
    }

    pub async fn client(&self) -> Client {
        http_client(&self.server.url()).await
    }

    pub fn force(&self, overrides: &Value) {
        self.project
            .write(".run/overrides.json", &overrides.to_string());
    }

    /// A fresh session makes a normal call and gets the normal answer: whatever came before
    /// neither ended the process nor broke the server for anyone else.
    pub async fn still_answers(&self) {
        let client = self.client().await;
        assert_marina(&client).await;
        client.cancel().await.expect("the client closes");
    }
}
