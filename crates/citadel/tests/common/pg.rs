//! A schema of its own on the test Postgres for a test that needs a real
//! database server (crash and fault tests).
//!
//! The database is `CITADEL_TEST_DATABASE_URL` (default: the local
//! `postgres://postgres@127.0.0.1:5432/test`). If it is unreachable the test
//! prints SKIPPED and passes, unless `CITADEL_REQUIRE_ALL=1`, then it fails.

#![allow(clippy::unwrap_used)]

use super::within;
use sqlx::{Connection, Executor};
use std::future::Future;
use std::time::Duration;

/// A schema of its own on the test Postgres, dropped by [`Db::drop_schema`].
pub struct Db {
    /// The database URL without the schema.
    pub base: String,
    schema: String,
}

impl Db {
    /// A fresh schema, or `None` (skip) if Postgres is unreachable and
    /// `CITADEL_REQUIRE_ALL` is not `1`.
    pub async fn create(test: &str) -> Option<Db> {
        let base = std::env::var("CITADEL_TEST_DATABASE_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string());
        sqlx::any::install_default_drivers();
        let mut conn = match sqlx::AnyConnection::connect(&base).await {
            Ok(c) => c,
            Err(e) => {
                if std::env::var("CITADEL_REQUIRE_ALL").as_deref() == Ok("1") {
                    panic!("Postgres at {base} unreachable and CITADEL_REQUIRE_ALL=1: {e}");
                }
                eprintln!(
                    "SKIPPED {test}: Postgres at {base} unreachable ({e}); \
                     set CITADEL_TEST_DATABASE_URL"
                );
                return None;
            }
        };
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let schema = format!("citadel_test_{}_{test}_{nanos}", std::process::id());
        conn.execute(format!("CREATE SCHEMA {schema}").as_str())
            .await
            .unwrap();
        conn.close().await.unwrap();
        Some(Db { base, schema })
    }

    /// The URL the server is given: the schema as its search path.
    pub fn url(&self) -> String {
        self.url_on(&self.base)
    }

    /// [`Db::url`] with another base URL (the same database reached
    /// another way, e.g. through a proxy).
    pub fn url_on(&self, base: &str) -> String {
        let sep = if base.contains('?') { '&' } else { '?' };
        format!("{base}{sep}options=-c%20search_path%3D{}", self.schema)
    }

    /// Drop the schema.
    pub async fn drop_schema(self) {
        let mut conn = sqlx::AnyConnection::connect(&self.base).await.unwrap();
        conn.execute(format!("DROP SCHEMA {} CASCADE", self.schema).as_str())
            .await
            .unwrap();
        conn.close().await.unwrap();
    }
}

/// Run a test body against a fresh schema (its URL and the [`Db`]), with
/// an overall deadline, then drop the schema whether the body passed or
/// not.
pub async fn with_db<F, Fut>(test: &str, limit: Duration, body: F)
where
    F: FnOnce(String) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Some(db) = Db::create(test).await else {
        return;
    };
    let outcome = tokio::spawn(within(limit, body(db.url()))).await;
    db.drop_schema().await;
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}
