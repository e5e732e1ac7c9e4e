//! The browser client's files. Built into the binary (rust-embed), so a
//! moved or installed `citadel` serves the client with nothing beside it;
//! `--web-dir` serves a directory instead (a deployment's own copy, or a
//! client being edited), and must then hold an `index.html`.

use axum::body::Body;
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;
use std::path::{Path, PathBuf};
use tower_http::services::{ServeDir, ServeFile};

/// `web-client/`, embedded at build time.
#[derive(RustEmbed)]
#[folder = "../../web-client"]
struct Client;

/// Check a `--web-dir` override before serving from it: a directory
/// without `index.html` would answer every page with a blank 404.
///
/// # Errors
/// A message naming the directory.
pub fn check_web_dir(dir: &Path) -> Result<(), String> {
    if dir.join("index.html").is_file() {
        Ok(())
    } else {
        Err(format!(
            "--web-dir {}: no index.html there (leave the option out to serve the client built into the binary)",
            dir.display()
        ))
    }
}

/// The service for every path no route claims: the override directory,
/// or the embedded files; unknown paths get `index.html` (the client
/// reads the address itself).
pub fn service(web_dir: Option<&PathBuf>) -> axum::routing::MethodRouter {
    match web_dir {
        Some(dir) => axum::routing::get_service(
            ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html"))),
        ),
        None => axum::routing::get(embedded),
    }
}

async fn embedded(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let file = Client::get(if path.is_empty() { "index.html" } else { path })
        .or_else(|| Client::get("index.html"));
    match file {
        Some(f) => (
            [(header::CONTENT_TYPE, f.metadata.mimetype().to_string())],
            Body::from(f.data.into_owned()),
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            "the client is missing from this build",
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_is_built_in() {
        let index = Client::get("index.html").expect("index.html embedded");
        assert!(String::from_utf8_lossy(&index.data).contains("data-client=\"citadel-board\""));
        assert!(Client::get("app.js").is_some());
        assert_eq!(
            Client::get("style.css").map(|f| f.metadata.mimetype().to_string()),
            Some("text/css".into())
        );
    }

    #[tokio::test]
    async fn game_modules_in_subfolders_are_served_as_scripts_and_styles() {
        // The shell's registry and a game's module (web-client/games/<id>/),
        // embedded with the rest and sent with a JavaScript type, which a
        // browser requires of a module script.
        for path in [
            "/games/index.js",
            "/games/siege/game.js",
            "/games/siege/board.js",
        ] {
            let js = embedded(Uri::from_static(path)).await;
            assert_eq!(js.status(), StatusCode::OK, "{path}");
            assert!(
                js.headers()[header::CONTENT_TYPE]
                    .to_str()
                    .is_ok_and(|t| t.contains("javascript")),
                "{path} is sent as JavaScript"
            );
        }
        let css = embedded(Uri::from_static("/games/siege/style.css")).await;
        assert_eq!(css.headers()[header::CONTENT_TYPE], "text/css");
    }

    #[tokio::test]
    async fn embedded_files_are_served_and_unknown_paths_get_the_page() {
        let css = embedded(Uri::from_static("/style.css")).await;
        assert_eq!(css.headers()[header::CONTENT_TYPE], "text/css");
        let page = embedded(Uri::from_static("/no/such/page")).await;
        assert_eq!(page.status(), StatusCode::OK);
        assert!(page.headers()[header::CONTENT_TYPE]
            .to_str()
            .is_ok_and(|t| t.starts_with("text/html")));
    }

    #[tokio::test]
    async fn the_server_refuses_to_start_with_a_missing_web_dir() {
        let mut config = crate::config::Config::for_tests();
        config.web_dir = Some(PathBuf::from("/nonexistent/web"));
        let err = crate::Server::start(config)
            .await
            .err()
            .map(|e| e.to_string());
        assert!(err.is_some_and(|e| e.contains("no index.html")));
    }

    #[test]
    fn a_web_dir_without_an_index_is_refused() {
        let err = check_web_dir(Path::new("/nonexistent/web")).expect_err("refused");
        assert!(err.contains("/nonexistent/web"));
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web-client");
        assert!(check_web_dir(&repo).is_ok());
    }
}
