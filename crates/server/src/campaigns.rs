//! Campaigns on the server: the HTTP API, the mission games, and applying
//! a finished mission to its campaign. The rules of campaigns live in
//! [`crate::campaign`]; this module only loads, stores and wires them.
//!
//! Every change of a campaign document is a read-modify-write under the
//! registry's campaign lock, so concurrent joins, a `next` and a finishing
//! game never lose each other's writes.

use crate::campaign::{CampaignDoc, CampaignError, DarkLegionMode, MissionSummary};
use crate::error::ServerError;
use crate::games::{wall_clock_ms, Registry};
use crate::session::{token_hash, Output, ReservedSeat};
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use citadel_protocol::{DarkLegionChoice, GameOptions};
use citadel_rules::content::Corporation;
use citadel_store::{CampaignMission, CampaignRecord, StoreError};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The campaign routes, merged into the app's router.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/campaigns", post(create))
        .route("/api/campaigns/{code}", get(standings))
        .route("/api/campaigns/{code}/join", post(join))
        .route("/api/campaigns/{code}/next", post(next))
}

fn store_err(e: StoreError) -> ServerError {
    ServerError::Internal(anyhow::anyhow!("store: {e}"))
}

impl From<CampaignError> for ServerError {
    fn from(e: CampaignError) -> Self {
        match e {
            CampaignError::Invalid(m) => ServerError::BadRequest(m),
            CampaignError::Conflict(m) => ServerError::Conflict(m),
        }
    }
}

fn parse_doc(record: &CampaignRecord) -> Result<CampaignDoc, ServerError> {
    serde_json::from_str(&record.state)
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("campaign {}: {e}", record.id)))
}

/// Store a changed document (and the finish time once finished).
async fn save(
    registry: &Registry,
    record: &mut CampaignRecord,
    doc: &CampaignDoc,
) -> Result<(), ServerError> {
    record.state =
        serde_json::to_string(doc).map_err(|e| ServerError::Internal(anyhow::anyhow!(e)))?;
    if doc.finished && record.finished_at.is_none() {
        record.finished_at = Some(wall_clock_ms());
    }
    registry
        .store()
        .update_campaign(record)
        .await
        .map_err(store_err)
}

fn random_hex(bytes: usize) -> String {
    let mut rng = rand::thread_rng();
    (0..bytes)
        .map(|_| format!("{:02x}", rng.gen::<u8>()))
        .collect()
}

/// Invite codes use the game codes' unambiguous alphabet.
fn invite_code() -> String {
    const ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";
    let mut rng = rand::thread_rng();
    (0..6)
        .map(|_| char::from(ALPHABET[rng.gen_range(0..ALPHABET.len())]))
        .collect()
}

/// Load a campaign by invite code, with a finished-but-unapplied mission
/// applied first (a restart between storing the game's end and the
/// campaign's update). Call with the campaign lock held.
async fn load(
    registry: &Registry,
    code: &str,
) -> Result<(CampaignRecord, CampaignDoc), ServerError> {
    let code = code.trim().to_ascii_uppercase();
    let mut record = registry
        .store()
        .campaign_by_code(&code)
        .await
        .map_err(store_err)?
        .ok_or(ServerError::NoCampaign)?;
    let mut doc = parse_doc(&record)?;
    if let Some(current) = doc.current.clone() {
        let game = registry
            .store()
            .game(&current.game)
            .await
            .map_err(store_err)?;
        if let Some(summary) = game.and_then(|g| g.result) {
            apply(registry, &mut record, &mut doc, &current.game, &summary).await?;
        }
    }
    Ok((record, doc))
}

/// CMP-3/CMP-4/CMP-6: apply a finished mission's result to the campaign and
/// store the history entry and the new document. Idempotent: a result
/// already applied (the game is no longer the mission in play) is skipped.
async fn apply(
    registry: &Registry,
    record: &mut CampaignRecord,
    doc: &mut CampaignDoc,
    game: &str,
    summary: &str,
) -> Result<(), ServerError> {
    if doc.current.as_ref().map(|c| c.game.as_str()) != Some(game) {
        return Ok(());
    }
    let summary: MissionSummary = serde_json::from_str(summary)
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("result of {game}: {e}")))?;
    let entry = doc.apply_result(game, &summary)?;
    let standings: Vec<serde_json::Value> = doc
        .players
        .iter()
        .map(|p| serde_json::json!({ "name": p.name, "pp": p.pp, "times_dl": p.times_dl }))
        .collect();
    let mission = CampaignMission {
        campaign: record.id.clone(),
        index: i64::from(entry.index),
        game: game.to_string(),
        summary: serde_json::json!({
            "entry": entry,
            "standings": standings,
            "ai_pp": doc.ai_pp,
        })
        .to_string(),
        at: wall_clock_ms(),
    };
    // History first: if the document write is lost, the next load applies
    // the result again and the repeated history row is a harmless conflict.
    match registry.store().add_campaign_mission(&mission).await {
        Ok(()) | Err(StoreError::Conflict(_)) => {}
        Err(e) => return Err(store_err(e)),
    }
    save(registry, record, doc).await
}

/// Called by a campaign game's task after each batch is persisted and
/// before it is sent: a `Finished` output is applied to the campaign, so
/// the players' `mission_ended` arrives with the standings already stored.
pub async fn after_persist(registry: &Arc<Registry>, campaign: &str, game: &str, out: &[Output]) {
    for o in out {
        let Output::Finished { result } = o else {
            continue;
        };
        let _guard = registry.campaign_lock().lock().await;
        let done = async {
            let mut record = registry
                .store()
                .campaign(campaign)
                .await
                .map_err(store_err)?
                .ok_or(ServerError::NoCampaign)?;
            let mut doc = parse_doc(&record)?;
            apply(registry, &mut record, &mut doc, game, result).await
        }
        .await;
        if let Err(e) = done {
            // The game's end is stored: the next load of the campaign
            // applies it.
            tracing::error!(campaign, game, error = %e, "cannot apply a mission to its campaign");
        }
    }
}

// ------------------------------------------------------------------ HTTP

/// `POST /api/campaigns`.
#[derive(Debug, Deserialize)]
struct CreateReq {
    name: String,
    players: u8,
    missions: u32,
    #[serde(default = "one")]
    starting_rank: u8,
    dark_legion: DarkLegionMode,
}

fn one() -> u8 {
    1
}

#[derive(Debug, Serialize)]
struct Created {
    id: String,
    code: String,
}

async fn create(
    State(app): State<AppState>,
    Json(req): Json<CreateReq>,
) -> Result<(StatusCode, Json<Created>), ServerError> {
    let doc = CampaignDoc::create(
        &req.name,
        req.players,
        req.missions,
        req.starting_rank,
        req.dark_legion,
    )?;
    let state = serde_json::to_string(&doc).map_err(|e| ServerError::Internal(e.into()))?;
    for _ in 0..8 {
        let record = CampaignRecord {
            id: random_hex(16),
            code: invite_code(),
            name: doc.name.clone(),
            state: state.clone(),
            created_at: wall_clock_ms(),
            finished_at: None,
        };
        match app.registry.store().create_campaign(&record).await {
            Ok(()) => {
                return Ok((
                    StatusCode::CREATED,
                    Json(Created {
                        id: record.id,
                        code: record.code,
                    }),
                ))
            }
            Err(StoreError::Conflict(_)) => continue,
            Err(e) => return Err(store_err(e)),
        }
    }
    Err(ServerError::Internal(anyhow::anyhow!(
        "no free campaign code"
    )))
}

/// `POST /api/campaigns/{code}/join`.
#[derive(Debug, Deserialize)]
struct JoinReq {
    name: String,
    corporation: Corporation,
}

#[derive(Debug, Serialize)]
struct Joined {
    /// The player's campaign token: resumes every mission's seat.
    token: String,
    /// The player's index (= seat in every mission).
    player: usize,
}

async fn join(
    State(app): State<AppState>,
    Path(code): Path<String>,
    headers: HeaderMap,
    Json(req): Json<JoinReq>,
) -> Result<Json<Joined>, ServerError> {
    let account = joining_account(&app, &headers).await?;
    let registry = &app.registry;
    let _guard = registry.campaign_lock().lock().await;
    let (mut record, mut doc) = load(registry, &code).await?;
    let token = random_hex(16);
    let player = doc.join(
        &req.name,
        req.corporation,
        token_hash(&token),
        account.clone(),
    )?;
    save(registry, &mut record, &doc).await?;
    if let Some(account) = account {
        registry
            .store()
            .link_campaign_member(&record.id, &account)
            .await
            .map_err(store_err)?;
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
    let account = crate::accounts::account_for_token(app.registry.store().as_ref(), token)
        .await
        .map_err(store_err)?;
    account.map(|a| Some(a.id)).ok_or(ServerError::Unauthorized)
}

/// `POST /api/campaigns/{code}/next`.
#[derive(Debug, Default, Deserialize)]
struct NextReq {
    #[serde(default)]
    mission: Option<String>,
}

#[derive(Debug, Serialize)]
struct NextGame {
    game: String,
    mission: String,
    /// The DL player's index; `null` with the AI.
    dark_legion: Option<usize>,
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

async fn next(
    State(app): State<AppState>,
    Path(code): Path<String>,
    headers: HeaderMap,
    body: Option<Json<NextReq>>,
) -> Result<Json<NextGame>, ServerError> {
    let req = body.map(|Json(b)| b).unwrap_or_default();
    let token = bearer(&headers)
        .ok_or_else(|| ServerError::BadToken("a campaign player's token is needed".into()))?
        .to_string();
    let registry = &app.registry;
    let _guard = registry.campaign_lock().lock().await;
    let (mut record, mut doc) = load(registry, &code).await?;
    if doc.player_by_token_hash(&token_hash(&token)).is_none() {
        return Err(ServerError::BadToken(
            "that token is not a player of this campaign".into(),
        ));
    }
    doc.can_start_next()?;
    let playable = citadel_rules::game::state::PLAYABLE_MISSIONS;
    let mission = match req.mission {
        Some(m) if playable.contains(&m.as_str()) => m,
        Some(_) => {
            return Err(ServerError::BadRequest(
                "unknown or unplayable mission".into(),
            ))
        }
        None => doc.default_mission(playable),
    };
    let (dl, seed) = {
        let mut rng = rand::thread_rng();
        (doc.choose_dl(&mut rng), rng.gen::<u64>())
    };
    let setup = doc.setup_for_next(&mission, dl, seed);
    let options = GameOptions {
        mission: mission.clone(),
        seats: doc.players.len() as u8,
        dark_legion: match dl {
            Some(d) => DarkLegionChoice::Seat(d as u8),
            None => DarkLegionChoice::Ai,
        },
        starting_rank: doc.starting_rank,
        turn_seconds: None,
    };
    let seats = doc
        .players
        .iter()
        .map(|p| ReservedSeat {
            name: p.name.clone(),
            corporation: p.corporation,
            token_hash: p.token_hash.clone(),
            account: p.account.clone(),
        })
        .collect();
    let game = registry
        .create_reserved(options, seats, setup, &record.id)
        .await?;
    doc.begin(&game, &mission, dl);
    save(registry, &mut record, &doc).await?;
    Ok(Json(NextGame {
        game,
        mission,
        dark_legion: dl,
    }))
}

/// One player in the standings.
#[derive(Debug, Serialize)]
struct PlayerView {
    player: usize,
    name: String,
    corporation: Corporation,
    pp: i32,
    rank: u8,
    times_dl: u32,
}

#[derive(Debug, Serialize)]
struct AiView {
    pp: i32,
    rank: u8,
}

/// `GET /api/campaigns/{code}`.
#[derive(Debug, Serialize)]
struct Standings {
    id: String,
    code: String,
    name: String,
    players_planned: u8,
    missions: u32,
    starting_rank: u8,
    dark_legion: DarkLegionMode,
    players: Vec<PlayerView>,
    ai: Option<AiView>,
    history: Vec<crate::campaign::HistoryEntry>,
    current_game: Option<crate::campaign::CurrentGame>,
    next_mission: Option<String>,
    finished: bool,
    winners: Vec<usize>,
    ai_wins: bool,
}

async fn standings(
    State(app): State<AppState>,
    Path(code): Path<String>,
) -> Result<Json<Standings>, ServerError> {
    let registry = &app.registry;
    let _guard = registry.campaign_lock().lock().await;
    let (record, doc) = load(registry, &code).await?;
    let next_mission = (!doc.finished && doc.current.is_none())
        .then(|| doc.default_mission(citadel_rules::game::state::PLAYABLE_MISSIONS));
    Ok(Json(Standings {
        id: record.id,
        code: record.code,
        name: doc.name,
        players_planned: doc.planned_players,
        missions: doc.missions,
        starting_rank: doc.starting_rank,
        dark_legion: doc.dark_legion,
        players: doc
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| PlayerView {
                player: i,
                name: p.name.clone(),
                corporation: p.corporation,
                pp: p.pp,
                rank: crate::campaign::rank(p.pp),
                times_dl: p.times_dl,
            })
            .collect(),
        ai: doc.ai_pp.map(|pp| AiView {
            pp,
            rank: crate::campaign::rank(pp),
        }),
        history: doc.history,
        current_game: doc.current,
        next_mission,
        finished: doc.finished,
        winners: doc.winners,
        ai_wins: doc.ai_wins,
    }))
}
