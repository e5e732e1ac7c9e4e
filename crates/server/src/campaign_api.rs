//! The campaign HTTP API: create, join, start the next game, a game's own
//! steps between games, and standings. The platform keeps the series (the
//! document under optimistic concurrency, invite code, tokens, history:
//! [`crate::campaign_ledger`]); each game's campaign rules decide what the
//! bodies mean ([`crate::campaign_kind`]); the games are made by the
//! [`crate::registry::Registry`] with every player's seat reserved.

use crate::error::ServerError;
use crate::secrets::{bearer, random_hex, token_hash};
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use citadel_game::Member;
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The campaign routes, merged into the app's router.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/campaigns", post(create))
        .route("/api/campaigns/{code}", get(standings))
        .route("/api/campaigns/{code}/join", post(join))
        .route("/api/campaigns/{code}/next", post(next))
        .route("/api/campaigns/{code}/{action}", post(act))
}

/// What the platform reads of a campaign request's body; the rest is the
/// game's (its campaign rules' terms, join or next request).
#[derive(Debug, Default, Deserialize)]
struct PlatformPart {
    /// The game (creation only): the catalogue's first when absent.
    #[serde(default)]
    kind: Option<String>,
    /// The player's name (join only).
    #[serde(default)]
    name: Option<String>,
}

fn platform_part(body: &Value) -> Result<PlatformPart, ServerError> {
    serde_json::from_value(body.clone()).map_err(|e| ServerError::BadRequest(e.to_string()))
}

/// `POST /api/campaigns` (201).
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignCreated"))]
pub(crate) struct Created {
    id: String,
    code: String,
}

async fn create(
    State(app): State<AppState>,
    Json(body): Json<Value>,
) -> Result<(StatusCode, Json<Created>), ServerError> {
    let part = platform_part(&body)?;
    let ledger = &app.campaigns;
    let kind = ledger.kind_or_first(part.kind.as_deref()).to_string();
    let (name, doc) = ledger.rules_of(&kind)?.create(body)?;
    let record = ledger.create(random_hex(16), &kind, &name, &doc).await?;
    Ok((
        StatusCode::CREATED,
        Json(Created {
            id: record.id,
            code: record.code,
        }),
    ))
}

/// `POST /api/campaigns/{code}/join`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignJoined"))]
pub(crate) struct Joined {
    /// The player's campaign token: resumes the seat in every game of the series.
    token: String,
    /// The player's index (= seat in every game of the series).
    player: usize,
}

async fn join(
    State(app): State<AppState>,
    Path(code): Path<String>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Result<Json<Joined>, ServerError> {
    let name = platform_part(&body)?
        .name
        .ok_or_else(|| ServerError::BadRequest("missing field `name`".into()))?;
    let account = joining_account(&app, &headers).await?;
    let ledger = &app.campaigns;
    let token = random_hex(16);
    let (c, player) = ledger
        .update(&code, |c| {
            let member = Member {
                name: name.clone(),
                token_hash: token_hash(&token),
                account: account.clone(),
            };
            c.rules.join(&mut c.doc, member, body.clone())
        })
        .await?;
    if let Some(account) = account {
        ledger.link_member(&c.record.id, &account).await?;
    }
    Ok(Json(Joined { token, player }))
}

/// The account joining a campaign: the login session of the
/// `Authorization: Bearer` header (a player who joins while logged in
/// finds the campaign in `GET /api/me`), or `None` for a guest. A token
/// that is not a live session is refused rather than joined as a guest.
async fn joining_account(
    app: &AppState,
    headers: &HeaderMap,
) -> Result<Option<String>, ServerError> {
    let Some(token) = bearer(headers) else {
        return Ok(None);
    };
    let account = crate::accounts::account_for_token(app.store.as_ref(), token).await?;
    account.map(|a| Some(a.id)).ok_or(ServerError::Unauthorized)
}

/// `POST /api/campaigns/{code}/next`: the next game, made with every
/// player's seat reserved; the answer is the game's rules' (it names the
/// game's code).
async fn next(
    State(app): State<AppState>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Option<Json<Value>>,
) -> Result<Json<Value>, ServerError> {
    let body = body.map(|Json(b)| b).unwrap_or(Value::Null);
    let hash = player_token_hash(&headers)?;
    let ledger = &app.campaigns;
    // Optimistic like every campaign change (crate::campaign_ledger), but
    // by hand: the change makes a game, which is not redone lightly.
    for attempt in 0..crate::campaign_ledger::TRIES {
        let mut c = ledger.load(&code).await?;
        if c.rules.player_by_token_hash(&c.doc, &hash)?.is_none() {
            return Err(not_a_player());
        }
        let entropy = rand::thread_rng().gen::<u64>();
        let prepared = c.rules.next(&c.doc, body.clone(), entropy)?;
        let game = app
            .registry
            .create_reserved(
                prepared.options(),
                |code, config| prepared.start(code, config),
                &c.record.id,
            )
            .await?;
        let answer = prepared.begin(&mut c.doc, &game)?;
        if ledger.save(&mut c).await? {
            return Ok(Json(answer));
        }
        // Another writer (a `next` on another node) changed the campaign
        // meanwhile: this game is not its game. Nobody is told its code,
        // so it is closed as abandoned when its idle time runs out; the
        // campaign is read again and the request decided again.
        tracing::info!(
            campaign = %c.record.id,
            game,
            "campaign changed while its next game was made; trying again"
        );
        crate::campaign_ledger::back_off(attempt).await;
    }
    Err(ServerError::Contended)
}

/// The hash of the campaign player's token in the `Authorization: Bearer`
/// header.
fn player_token_hash(headers: &HeaderMap) -> Result<String, ServerError> {
    Ok(token_hash(bearer(headers).ok_or_else(|| {
        ServerError::BadToken("a campaign player's token is needed".into())
    })?))
}

fn not_a_player() -> ServerError {
    ServerError::BadToken("that token is not a player of this campaign".into())
}

/// `POST /api/campaigns/{code}/{action}`: one of the game's own steps
/// between games (Siege's classic `credit`: CEC-4, buy a credit), for the
/// token's player; 404 when the game has no step of that name.
async fn act(
    State(app): State<AppState>,
    Path((code, action)): Path<(String, String)>,
    headers: HeaderMap,
    body: Option<Json<Value>>,
) -> Result<Json<Value>, ServerError> {
    let body = body.map(|Json(b)| b).unwrap_or(Value::Null);
    let hash = player_token_hash(&headers)?;
    let (_, answer) = app
        .campaigns
        .update(&code, |c| {
            let player = c
                .rules
                .player_by_token_hash(&c.doc, &hash)?
                .ok_or_else(not_a_player)?;
            c.rules
                .act(&mut c.doc, player, &action, &body)?
                .ok_or(ServerError::NotFound)
        })
        .await?;
    Ok(Json(answer))
}

/// `GET /api/campaigns/{code}`: the game's standings, with the game's
/// `kind`.
async fn standings(
    State(app): State<AppState>,
    Path(code): Path<String>,
) -> Result<Json<Value>, ServerError> {
    let c = app.campaigns.load(&code).await?;
    let mut standings = c.rules.standings(&c.doc, &c.record.id, &c.record.code)?;
    if let Value::Object(fields) = &mut standings {
        fields.insert("kind".into(), Value::String(c.record.kind.clone()));
    }
    Ok(Json(standings))
}
