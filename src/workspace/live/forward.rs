//! One HTTP request passed on to a server the user named, for the recording proxy (`schema-lint
//! record --listen`): the request as the host sent it, the answer as the server sent it, its body
//! a reader that yields bytes as they arrive. Like the `--url` transport, it follows no redirect
//! (a 3xx goes back to the host) and reports an HTTP error status as an answer, not a failure.

use std::io::Read;

/// What the server answered.
pub struct Forwarded {
    /// The HTTP status code.
    pub status: u16,
    /// Its reason phrase, where the status has a standard one.
    pub reason: &'static str,
    /// The response headers, as sent (names as the server spelled them, values that are text).
    pub headers: Vec<(String, String)>,
    /// The body, as it arrives.
    pub body: Box<dyn Read + Send>,
}

/// A client for the proxy's requests: no redirect, no status as an error, no time limit (an
/// event stream may stay open as long as the host keeps it). Cheap to clone.
#[derive(Clone)]
pub struct Client(ureq::Agent);

impl Default for Client {
    fn default() -> Self {
        Self(
            ureq::Agent::config_builder()
                .http_status_as_error(false)
                .max_redirects(0)
                .build()
                .into(),
        )
    }
}

/// Sends `method` (`POST`, `GET` or `DELETE`) to `url` with `headers` and, for `POST`, `body`.
///
/// # Errors
/// The method is another one, or the server could not be reached (in words).
pub fn forward(
    client: &Client,
    method: &str,
    url: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> Result<Forwarded, String> {
    let agent = &client.0;
    let response = match method {
        "POST" => {
            let mut r = agent.post(url);
            for (name, value) in headers {
                r = r.header(name, value);
            }
            r.send(body)
        }
        "GET" | "DELETE" => {
            let mut r = if method == "GET" {
                agent.get(url)
            } else {
                agent.delete(url)
            };
            for (name, value) in headers {
                r = r.header(name, value);
            }
            r.call()
        }
        _ => return Err(format!("`{method}` is not an MCP method over HTTP")),
    };
    let response = response.map_err(|e| e.to_string())?;
    let status = response.status();
    let headers = response
        .headers()
        .iter()
        .filter_map(|(name, value)| {
            Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
        })
        .collect();
    Ok(Forwarded {
        status: status.as_u16(),
        reason: status.canonical_reason().unwrap_or(""),
        headers,
        body: Box::new(response.into_body().into_reader()),
    })
}
