//! The widget resource `ui://careem-mcp-app` exactly as production serves it: tools' `_meta`
//! point ChatGPT and Claude at it, and its HTML loads the widget bundle from the widget domain.

use rmcp::model::{MetaObject, ReadResourceResult, Resource, ResourceContents};
use serde_json::{Value, json};

pub(crate) const URI: &str = "ui://careem-mcp-app";
const NAME: &str = "careem-mcp-app";
const TITLE: &str = "Careem";
/// The MCP Apps media type, which both ChatGPT and Claude render.
const MIME_TYPE: &str = "text/html;profile=mcp-app";
const DESCRIPTION: &str =
    "The Careem widget that shows restaurants, menus, baskets, rides and orders.";

/// The resource as listed and as read; built once per server.
#[derive(Debug, Clone)]
pub(crate) struct Widget {
    resource: Resource,
    contents: ResourceContents,
}

impl Widget {
    pub(crate) fn new(widget_domain: &str) -> Self {
        let domain = widget_domain.trim_end_matches('/');
        let meta = MetaObject(meta(domain));
        Self {
            resource: Resource::new(URI, NAME)
                .with_title(TITLE)
                .with_description(DESCRIPTION)
                .with_mime_type(MIME_TYPE)
                .with_meta(meta.clone()),
            contents: ResourceContents::TextResourceContents {
                uri: URI.to_string(),
                mime_type: Some(MIME_TYPE.to_string()),
                text: html(domain),
                meta: Some(meta),
            },
        }
    }

    pub(crate) fn resource(&self) -> Resource {
        self.resource.clone()
    }

    pub(crate) fn read(&self) -> ReadResourceResult {
        ReadResourceResult::new(vec![self.contents.clone()])
    }
}

/// Both vocabularies: the MCP Apps `ui` block and ChatGPT's `openai/*` keys.
fn meta(domain: &str) -> serde_json::Map<String, Value> {
    let value = json!({
        "ui": {
            "csp": {"connectDomains": [domain], "resourceDomains": [domain]},
            "domain": domain,
            "prefersBorder": true
        },
        "openai/widgetDomain": domain,
        "openai/widgetCSP": {"connect_domains": [domain], "resource_domains": [domain]},
        "openai/widgetPrefersBorder": true,
        "openai/widgetDescription": DESCRIPTION
    });
    let Value::Object(map) = value else {
        return serde_json::Map::new();
    };
    map
}

/// A shell that loads the bundle; the widget itself reads the tool result from the host.
fn html(domain: &str) -> String {
    let domain = attribute(domain);
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="{domain}/assets/index.css">
<script type="module" src="{domain}/assets/index.js"></script>
</head>
<body>
<div id="root"></div>
</body>
</html>
"#
    )
}

/// The domain comes from the command line; keep it from breaking out of the attribute.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
