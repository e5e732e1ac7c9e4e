//! Accounts and login sessions over HTTP: register, log in, log out, and
//! "me" (the account with its games and campaigns).
//!
//! Passwords are kept as argon2id PHC strings (random salt, the crate's
//! default parameters). Hashing is slow on purpose, so it runs on the
//! blocking pool, a few at a time. A session token is 32 random bytes
//! (hex) given to the client once; the store keeps only its SHA-256, so a
//! leaked database holds no usable token.

use crate::clock::wall_clock_ms;
use crate::edge::throttle::{retry_after_secs, LoginThrottle};
use crate::error::ServerError;
use crate::metrics::ReasonLabel;
use crate::secrets::{bearer, random_hex, token_hash};
use crate::AppState;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use citadel_store::{AccountRecord, SessionRecord, Store, StoreError};
use rand::rngs::OsRng;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use tokio::sync::Semaphore;

/// How long a login lasts.
pub const SESSION_LIFETIME_MS: i64 = 30 * 24 * 60 * 60 * 1000;
/// Account names, trimmed, in characters.
const NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=32;
/// Shortest password, in characters.
const MIN_PASSWORD_CHARS: usize = 8;
/// Longest password, in bytes (hashing cost must stay bounded).
const MAX_PASSWORD_BYTES: usize = 1024;
/// Password hashes computed at once (each takes ~19 MiB and a core).
const HASH_SLOTS: usize = 4;

/// The account routes, merged into the app's router.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/accounts", post(register))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/me", get(me))
        .route("/api/me/claim", post(claim))
}

/// Most seats one claim may name.
pub const MAX_CLAIMS: usize = 200;

/// One seat a browser holds a token for.
#[derive(Debug, Deserialize)]
struct SeatToken {
    code: String,
    token: String,
}

/// `POST /api/me/claim`: the seats this browser played as a guest.
#[derive(Debug, Deserialize)]
struct Claim {
    games: Vec<SeatToken>,
}

/// `POST /api/me/claim` answers how many seats joined the account.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Claimed {
    /// Seats linked now (a seat linked before counts too).
    linked: u32,
}

/// `POST /api/me/claim`: the games a guest played on this browser join
/// the account that logs in or registers on it. A seat joins only with
/// its own token (the one the game gave the browser), so nobody claims a
/// seat they do not hold; codes and tokens that match nothing are
/// skipped. The seat itself keeps playing by its token.
async fn claim(
    State(app): State<AppState>,
    headers: HeaderMap,
    Json(body): Json<Claim>,
) -> Result<Json<Claimed>, ServerError> {
    let (account, _) = authenticate(&app, &headers).await?;
    if body.games.len() > MAX_CLAIMS {
        return Err(ServerError::BadRequest(format!(
            "at most {MAX_CLAIMS} seats at once"
        )));
    }
    let mut linked = 0;
    for SeatToken { code, token } in body.games {
        let code = code.to_uppercase();
        let Some(game) = app.store.game(&code).await? else {
            continue;
        };
        let lobby = json_value(Some(&game.lobby), "lobby");
        let hash = crate::secrets::token_hash(&token);
        let seat = lobby["seats"].as_array().and_then(|seats| {
            seats
                .iter()
                .position(|s| s["token_hash"].as_str() == Some(hash.as_str()))
        });
        if let Some(seat) = seat.and_then(|s| u8::try_from(s).ok()) {
            app.store.link_player(&code, seat, &account.id).await?;
            linked += 1;
        }
    }
    Ok(Json(Claimed { linked }))
}

/// Name and password, as registering and logging in send them. No
/// `Debug`: a password must never reach a log line.
#[derive(Deserialize)]
struct Credentials {
    name: String,
    password: String,
}

/// An account as clients see it (`POST /api/accounts` answers with it).
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub(crate) struct AccountInfo {
    id: String,
    name: String,
}

impl From<&AccountRecord> for AccountInfo {
    fn from(a: &AccountRecord) -> Self {
        AccountInfo {
            id: a.id.clone(),
            name: a.name.clone(),
        }
    }
}

/// `POST /api/login`: the session token (sent as `Authorization: Bearer`)
/// and its account.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub(crate) struct LoggedIn {
    token: String,
    account: AccountInfo,
}

fn hash_slots() -> &'static Semaphore {
    static SLOTS: OnceLock<Semaphore> = OnceLock::new();
    SLOTS.get_or_init(|| Semaphore::new(HASH_SLOTS))
}

/// Run slow password work on the blocking pool, a few at a time, so a
/// flood of logins queues instead of exhausting memory.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
) -> Result<T, ServerError> {
    let _slot = hash_slots()
        .acquire()
        .await
        .map_err(|e| ServerError::Internal(e.into()))?;
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ServerError::Internal(e.into()))?
        .map_err(ServerError::Internal)
}

/// An argon2id PHC string of `password` with a fresh random salt.
fn hash_password(password: &str) -> anyhow::Result<String> {
    let mut salt = [0u8; 16];
    OsRng.fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("argon2: {e}"))
}

/// Does `password` match the PHC string `stored`? (The parameters and
/// salt come from the string itself.)
fn verify_password(password: &str, stored: &str) -> anyhow::Result<bool> {
    let parsed = PasswordHash::new(stored).map_err(|e| anyhow::anyhow!("stored hash: {e}"))?;
    Ok(Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok())
}

/// A hash no password matches, verified against for unknown names so a
/// login takes as long whether or not the name exists.
fn dummy_hash() -> anyhow::Result<&'static str> {
    static DUMMY: OnceLock<String> = OnceLock::new();
    if let Some(h) = DUMMY.get() {
        return Ok(h);
    }
    let h = hash_password(&random_hex(32))?;
    Ok(DUMMY.get_or_init(|| h))
}

/// The trimmed name, if it is acceptable.
fn valid_name(name: &str) -> Result<String, ServerError> {
    let name = name.trim();
    if !NAME_CHARS.contains(&name.chars().count()) {
        return Err(ServerError::BadRequest(
            "the name must be 3-32 characters".into(),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(ServerError::BadRequest(
            "the name may not contain control characters".into(),
        ));
    }
    Ok(name.to_string())
}

fn valid_password(password: &str) -> Result<(), ServerError> {
    if password.chars().count() < MIN_PASSWORD_CHARS || password.len() > MAX_PASSWORD_BYTES {
        return Err(ServerError::BadRequest(
            "the password must be at least 8 characters (and at most 1024 bytes)".into(),
        ));
    }
    Ok(())
}

/// A refused attempt as the API answers it.
fn throttled(wait: std::time::Duration, app: &AppState) -> ServerError {
    app.metrics
        .refused
        .get_or_create(&ReasonLabel {
            reason: "login_throttled".into(),
        })
        .inc();
    ServerError::Throttled(retry_after_secs(wait))
}

/// `POST /api/accounts`.
async fn register(
    State(app): State<AppState>,
    Extension(throttle): Extension<Arc<LoginThrottle>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Json(body): Json<Credentials>,
) -> Result<(StatusCode, Json<AccountInfo>), ServerError> {
    // Registering costs a password hash too: the same per-address limit.
    throttle
        .address(peer.ip())
        .map_err(|wait| throttled(wait, &app))?;
    let name = valid_name(&body.name)?;
    valid_password(&body.password)?;
    let store = &app.store;
    // A cheap early answer for a taken name; the store's unique index
    // decides races.
    if store.account_by_name(&name).await?.is_some() {
        return Err(ServerError::Conflict("that name is taken".into()));
    }
    let password = body.password;
    let password_hash = blocking(move || hash_password(&password)).await?;
    let account = AccountRecord {
        id: random_hex(16),
        name,
        password_hash,
        created_at: wall_clock_ms(),
    };
    match store.create_account(&account).await {
        Ok(()) => {}
        Err(StoreError::Conflict(_)) => {
            return Err(ServerError::Conflict("that name is taken".into()))
        }
        Err(e) => return Err(e.into()),
    }
    tracing::info!(account = %account.id, "account created");
    Ok((StatusCode::CREATED, Json(AccountInfo::from(&account))))
}

/// `POST /api/login`. Throttled per address and per name before the
/// name is looked up, so a `429` says nothing about whether it exists.
async fn login(
    State(app): State<AppState>,
    Extension(throttle): Extension<Arc<LoginThrottle>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Json(body): Json<Credentials>,
) -> Result<Json<LoggedIn>, ServerError> {
    throttle
        .login(peer.ip(), &body.name)
        .map_err(|wait| throttled(wait, &app))?;
    let store = &app.store;
    let found = store.account_by_name(body.name.trim()).await?;
    let stored = found.as_ref().map(|a| a.password_hash.clone());
    let password = body.password;
    let ok = blocking(move || match stored {
        Some(stored) => verify_password(&password, &stored),
        None => {
            verify_password(&password, dummy_hash()?)?;
            Ok(false)
        }
    })
    .await?;
    let Some(account) = found.filter(|_| ok) else {
        tracing::info!("failed login");
        return Err(ServerError::BadCredentials);
    };
    let token = random_hex(32);
    let now = wall_clock_ms();
    let session = SessionRecord {
        token_hash: token_hash(&token),
        account_id: account.id.clone(),
        created_at: now,
        expires_at: now + SESSION_LIFETIME_MS,
    };
    store.create_session(&session).await?;
    Ok(Json(LoggedIn {
        token,
        account: AccountInfo::from(&account),
    }))
}

/// The account a session token belongs to, or `None` for an unknown or
/// expired token (an expired one is deleted on the way).
///
/// # Errors
/// A store failure.
pub async fn account_for_token(
    store: &dyn Store,
    token: &str,
) -> Result<Option<AccountRecord>, StoreError> {
    let hash = token_hash(token);
    let Some(session) = store.session(&hash).await? else {
        return Ok(None);
    };
    if session.expires_at <= wall_clock_ms() {
        store.delete_session(&hash).await?;
        return Ok(None);
    }
    store.account(&session.account_id).await
}

/// The logged-in account and its session's token hash.
async fn authenticate(
    app: &AppState,
    headers: &HeaderMap,
) -> Result<(AccountRecord, String), ServerError> {
    let token = bearer(headers).ok_or(ServerError::Unauthorized)?;
    let account = account_for_token(app.store.as_ref(), token)
        .await?
        .ok_or(ServerError::Unauthorized)?;
    Ok((account, token_hash(token)))
}

/// `POST /api/logout`: ends the session of the bearer token.
async fn logout(
    State(app): State<AppState>,
    headers: HeaderMap,
) -> Result<StatusCode, ServerError> {
    let (_, hash) = authenticate(&app, &headers).await?;
    app.store.delete_session(&hash).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A stored JSON document as a JSON value (`null` if it does not parse,
/// which is logged: the rest of the answer is still useful).
pub(crate) fn json_value(text: Option<&str>, what: &str) -> Value {
    match text.map(serde_json::from_str::<Value>) {
        None => Value::Null,
        Some(Ok(v)) => v,
        Some(Err(e)) => {
            tracing::error!(what, error = %e, "stored JSON does not parse");
            Value::Null
        }
    }
}

/// One of an account's games. Times are Unix milliseconds.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MyGame {
    code: String,
    /// The game's kind.
    kind: String,
    /// The options it was made with (`null` if the stored copy does not
    /// parse).
    #[cfg_attr(feature = "ts", ts(as = "Option<citadel_protocol::TableOptions>"))]
    options: Value,
    created_at: i64,
    started_at: Option<i64>,
    finished_at: Option<i64>,
    /// Its summary once finished (the game's own), else `null`.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    result: Value,
    /// The campaign it is a game of.
    campaign: Option<String>,
    /// In "my games": does the game wait for this account's seat now?
    /// Left out when unknown: the game is not running on this node (it
    /// sleeps in the store, or another node of a cluster runs it).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    your_turn: Option<bool>,
}

impl MyGame {
    /// A stored game as its players' lists show it.
    pub(crate) fn of(g: citadel_store::GameRecord) -> Self {
        MyGame {
            kind: g.kind.clone(),
            options: json_value(Some(&g.options), "options"),
            result: json_value(g.result.as_deref(), "result"),
            code: g.code,
            created_at: g.created_at,
            started_at: g.started_at,
            finished_at: g.finished_at,
            campaign: g.campaign,
            your_turn: None,
        }
    }

    /// Has it finished?
    pub(crate) fn is_finished(&self) -> bool {
        self.finished_at.is_some()
    }

    /// Was it a public table (listed in the lobby, or rated)? A private
    /// table's code is its players' to share, so a public profile never
    /// shows it.
    pub(crate) fn is_public(&self) -> bool {
        self.options["listed"] == true || self.options["rated"] == true
    }
}

/// One of an account's campaigns. Times are Unix milliseconds.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
struct MyCampaign {
    id: String,
    code: String,
    name: String,
    created_at: i64,
    finished_at: Option<i64>,
}

/// `GET /api/me`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub(crate) struct Me {
    account: AccountInfo,
    games: Vec<MyGame>,
    campaigns: Vec<MyCampaign>,
}

/// `GET /api/me`: the account, its games (newest first) and campaigns.
async fn me(State(app): State<AppState>, headers: HeaderMap) -> Result<Json<Me>, ServerError> {
    let (account, _) = authenticate(&app, &headers).await?;
    let store = &app.store;
    let games = store
        .games_of_account(&account.id)
        .await?
        .into_iter()
        .map(|g| {
            // The account's seat, from the stored lobby; whether the game
            // waits for it, from the game's task when it runs here.
            let seat = json_value(Some(&g.lobby), "lobby")["seats"]
                .as_array()
                .and_then(|seats| {
                    seats
                        .iter()
                        .position(|s| s["account"] == account.id.as_str())
                });
            let live = app.registry.live_games().status(&g.code);
            let mut mine = MyGame::of(g);
            if let (Some(seat), Some(live)) = (seat, live) {
                mine.your_turn = Some(live.to_act.iter().any(|s| usize::from(*s) == seat));
            }
            mine
        })
        .collect();
    let campaigns = store
        .campaigns_of_account(&account.id)
        .await?
        .into_iter()
        .map(|c| MyCampaign {
            id: c.id,
            code: c.code,
            name: c.name,
            created_at: c.created_at,
            finished_at: c.finished_at,
        })
        .collect();
    Ok(Json(Me {
        account: AccountInfo::from(&account),
        games,
        campaigns,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let h = hash_password("correct horse").expect("hash");
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(verify_password("correct horse", &h).expect("verify"));
        assert!(!verify_password("correct horsE", &h).expect("verify"));
        // Salted: the same password hashes differently twice.
        assert_ne!(h, hash_password("correct horse").expect("hash"));
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(valid_name("  Mitch ").ok().as_deref(), Some("Mitch"));
        assert!(valid_name("ab").is_err());
        assert!(valid_name("   ab   ").is_err());
        assert!(valid_name(&"x".repeat(33)).is_err());
        assert!(valid_name(&"é".repeat(32)).is_ok());
        assert!(valid_name("bad\nname").is_err());
        assert!(valid_password("1234567").is_err());
        assert!(valid_password("12345678").is_ok());
    }
}
