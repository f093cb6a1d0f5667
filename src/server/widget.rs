//! The widget resource `ui://careem-mcp-app` exactly as production serves it: tools' `_meta`
//! point ChatGPT and Claude at it, and its HTML loads the widget bundle from the widget domain.

use serde_json::{Map, Value, json};

use crate::go::json::{self as go_json, Escaping};

pub(crate) const URI: &str = "ui://careem-mcp-app";
const NAME: &str = "careem-mcp-app";
const TITLE: &str = "Careem";
/// The MCP Apps media type, which both ChatGPT and Claude render.
const MIME_TYPE: &str = "text/html;profile=mcp-app";
const DESCRIPTION: &str =
    "The Careem widget that shows restaurants, menus, baskets, rides and orders.";

/// The resource as listed and as read, written once per server in the SDK's field order
/// (`Resource`, `ResourceContents`), `_meta` as a Go map.
#[derive(Debug, Clone)]
pub(crate) struct Widget {
    resource: Vec<u8>,
    read: Vec<u8>,
}

impl Widget {
    pub(crate) fn new(widget_domain: &str) -> Self {
        let domain = widget_domain.trim_end_matches('/');
        let meta = go_json::sorted(&Value::Object(meta(domain)));
        let mut resource = Map::new();
        resource.insert("_meta".into(), meta.clone());
        resource.insert("description".into(), DESCRIPTION.into());
        resource.insert("mimeType".into(), MIME_TYPE.into());
        resource.insert("name".into(), NAME.into());
        resource.insert("title".into(), TITLE.into());
        resource.insert("uri".into(), URI.into());
        let mut contents = Map::new();
        contents.insert("uri".into(), URI.into());
        contents.insert("mimeType".into(), MIME_TYPE.into());
        contents.insert("text".into(), html(domain).into());
        contents.insert("_meta".into(), meta);
        let mut read = br#"{"contents":["#.to_vec();
        go_json::write(&mut read, &contents, Escaping::Envelope);
        read.extend_from_slice(b"]}");
        Self {
            resource: go_json::to_vec(&resource, Escaping::Envelope),
            read,
        }
    }

    /// The `Resource` object, JSON.
    pub(crate) fn resource(&self) -> &[u8] {
        &self.resource
    }

    /// The `resources/read` result, JSON.
    pub(crate) fn read(&self) -> &[u8] {
        &self.read
    }
}

/// Both vocabularies: the MCP Apps `ui` block and ChatGPT's `openai/*` keys.
fn meta(domain: &str) -> Map<String, Value> {
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
        return Map::new();
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
