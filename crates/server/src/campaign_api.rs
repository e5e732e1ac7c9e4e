//! The campaign HTTP API: create, join, start the next mission, and
//! standings. The rules are [`crate::campaign_rules`]; loading, saving and
//! applying results are [`crate::campaign_ledger`]; the mission games are
//! made by the [`crate::registry::Registry`].

use crate::campaign_rules::{
    all_mission_ids, sequence, CampaignChoice, CampaignDoc, CampaignEnd, CampaignTerms,
    CurrentGame, DarkLegionMode, HistoryEntry, DEFAULT_TARGET_PP,
};
use crate::content_api::MissionBrief;
use crate::error::ServerError;
use crate::secrets::{bearer, random_hex, token_hash};
use crate::session::ReservedSeat;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use citadel_protocol::{DarkLegionChoice, GameOptions};
use citadel_rules::content::Corporation;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// The campaign routes, merged into the app's router.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/campaigns", post(create))
        .route("/api/campaigns/{code}", get(standings))
        .route("/api/campaigns/{code}/join", post(join))
        .route("/api/campaigns/{code}/next", post(next))
        .route("/api/campaigns/{code}/credit", post(buy_credit))
}

/// `POST /api/campaigns`.
#[derive(Debug, Deserialize)]
struct CreateReq {
    name: String,
    players: u8,
    /// Campaign 1, 2, both, or the classic missions (CMP-1); both when
    /// absent.
    #[serde(default)]
    campaign: CampaignChoice,
    /// M; the length of the chosen sequence when absent (5, or 10 for
    /// both and for classic).
    #[serde(default)]
    missions: Option<u32>,
    #[serde(default = "one")]
    starting_rank: u8,
    dark_legion: DarkLegionMode,
    /// After M missions (default), or classic "first to T PP".
    #[serde(default)]
    end: CampaignEnd,
    /// T of "first to T"; 130 when absent.
    #[serde(default)]
    target_pp: Option<i32>,
    /// Classic: choose each mission freely (CMP-5).
    #[serde(default)]
    free_choice: bool,
}

fn one() -> u8 {
    1
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
    Json(req): Json<CreateReq>,
) -> Result<(StatusCode, Json<Created>), ServerError> {
    let seq = sequence(req.campaign, &all_mission_ids());
    if seq.is_empty() {
        return Err(ServerError::BadRequest(
            "there is no mission record for that campaign".into(),
        ));
    }
    // Each form has its own length: say which rather than ignore a field.
    if req.target_pp.is_some() && req.end != CampaignEnd::FirstTo {
        return Err(ServerError::BadRequest(
            "target_pp goes with \"end\": \"first_to\"".into(),
        ));
    }
    if req.missions.is_some() && req.end == CampaignEnd::FirstTo {
        return Err(ServerError::BadRequest(
            "a \"first_to\" campaign has no number of missions".into(),
        ));
    }
    let doc = CampaignDoc::create_with(&CampaignTerms {
        name: req.name,
        players: req.players,
        missions: req.missions.unwrap_or(seq.len() as u32),
        starting_rank: req.starting_rank,
        dark_legion: req.dark_legion,
        campaign: req.campaign,
        end: req.end,
        target_pp: req.target_pp.unwrap_or(DEFAULT_TARGET_PP),
        free_choice: req.free_choice,
    })?;
    let record = app.campaigns.create(random_hex(16), &doc).await?;
    Ok((
        StatusCode::CREATED,
        Json(Created {
            id: record.id,
            code: record.code,
        }),
    ))
}

/// `POST /api/campaigns/{code}/join`.
#[derive(Debug, Deserialize)]
struct JoinReq {
    name: String,
    corporation: Corporation,
}

/// `POST /api/campaigns/{code}/join`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignJoined"))]
pub(crate) struct Joined {
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
    let ledger = &app.campaigns;
    let token = random_hex(16);
    let (c, player) = ledger
        .update(&code, |c| {
            Ok(c.doc.join(
                &req.name,
                req.corporation,
                token_hash(&token),
                account.clone(),
            )?)
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

/// `POST /api/campaigns/{code}/next`.
#[derive(Debug, Default, Deserialize)]
struct NextReq {
    #[serde(default)]
    mission: Option<String>,
}

/// `POST /api/campaigns/{code}/next`: the mission's game, made with
/// every player's seat reserved.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignNextGame"))]
pub(crate) struct NextGame {
    game: String,
    mission: String,
    /// The DL player's index; `null` with the AI.
    dark_legion: Option<usize>,
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
    let ledger = &app.campaigns;
    // Optimistic like every campaign change (crate::campaign_ledger), but
    // by hand: the change makes a game, which is not redone lightly.
    for attempt in 0..crate::campaign_ledger::TRIES {
        let mut c = ledger.load(&code).await?;
        let doc = &mut c.doc;
        if doc.player_by_token_hash(&token_hash(&token)).is_none() {
            return Err(ServerError::BadToken(
                "that token is not a player of this campaign".into(),
            ));
        }
        doc.can_start_next()?;
        // CMP-5: the listed mission, whatever the earlier outcomes. A
        // mission the engine cannot play yet is not replaced by another:
        // the campaign waits, and says what the mission needs.
        let ids = all_mission_ids();
        let Some(listed) = doc.next_mission(&ids).map(str::to_string) else {
            return Err(ServerError::Conflict(
                "the campaign has no mission left to play".into(),
            ));
        };
        // With free choice (classic CMP-5) the body may name any of the
        // campaign's missions; else it must be the listed one.
        let mission = match &req.mission {
            Some(asked) if doc.may_play(asked, &ids) => asked.clone(),
            Some(asked) if doc.free_choice => {
                return Err(ServerError::Conflict(format!(
                    "{asked} is not one of this campaign's missions"
                )))
            }
            Some(asked) => {
                return Err(ServerError::Conflict(format!(
                    "missions run in order (CMP-5): the next mission is {listed}, not {asked}"
                )))
            }
            None => listed,
        };
        if let Err(e) = crate::options::mission_playable(&mission) {
            return Err(ServerError::Conflict(e.message));
        }
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
        let game = app
            .registry
            .create_reserved(options, seats, setup, &c.record.id)
            .await?;
        c.doc.begin(&game, &mission, dl);
        if ledger.save(&mut c).await? {
            return Ok(Json(NextGame {
                game,
                mission,
                dark_legion: dl,
            }));
        }
        // Another writer (a `next` on another node) changed the campaign
        // meanwhile: this game is not its mission. Nobody is told its
        // code, so it is closed as abandoned when its idle time runs out;
        // the campaign is read again and the request decided again.
        tracing::info!(
            campaign = %c.record.id,
            game,
            "campaign changed while its next mission was made; trying again"
        );
        crate::campaign_ledger::back_off(attempt).await;
    }
    Err(ServerError::Contended)
}

/// `POST /api/campaigns/{code}/credit`: the buyer's standing after it.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignCreditBought"))]
pub(crate) struct CreditBought {
    /// The buyer's index.
    player: usize,
    /// PP after paying 5.
    pp: i32,
    /// Rank from those PP (CRK-1): the rank the mission starts with.
    rank: u8,
    /// Credits after.
    credits: i32,
}

/// CEC-4: the token's player converts 5 PP into 1 credit before the next
/// mission starts, once per mission.
async fn buy_credit(
    State(app): State<AppState>,
    Path(code): Path<String>,
    headers: HeaderMap,
) -> Result<Json<CreditBought>, ServerError> {
    let hash = token_hash(
        bearer(&headers)
            .ok_or_else(|| ServerError::BadToken("a campaign player's token is needed".into()))?,
    );
    let (_, bought) = app
        .campaigns
        .update(&code, |c| {
            let player = c.doc.player_by_token_hash(&hash).ok_or_else(|| {
                ServerError::BadToken("that token is not a player of this campaign".into())
            })?;
            c.doc.buy_credit(player)?;
            let p = &c.doc.players[player];
            Ok(CreditBought {
                player,
                pp: p.pp,
                rank: c.doc.rank_of(p.pp),
                credits: p.credits,
            })
        })
        .await?;
    Ok(Json(bought))
}

/// One player in the standings.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignPlayerView"))]
struct PlayerView {
    player: usize,
    name: String,
    corporation: Corporation,
    pp: i32,
    /// In the campaign's edition (RNK-1, CRK-1).
    rank: u8,
    times_dl: u32,
    /// Classic credits (CEC-1); `null` in CE campaigns.
    credits: Option<i32>,
    /// Bought a credit for the next mission (CEC-4).
    credit_bought: bool,
}

/// The AI Dark Legion in the standings (AI campaigns).
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignAiView"))]
struct AiView {
    pp: i32,
    rank: u8,
}

/// One mission of the campaign's order.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignOrderEntry"))]
struct OrderEntry {
    /// Mission number in the campaign, from 0.
    index: usize,
    /// Mission id.
    mission: String,
    /// Its name.
    name: String,
    /// The engine can play it.
    playable: bool,
}

/// The mission to play next: its number, and its briefing (with
/// `playable` and `missing`).
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignNextMission"))]
struct NextMission<'a> {
    /// Mission number in the campaign, from 0.
    index: usize,
    #[serde(flatten)]
    brief: MissionBrief<'a>,
}

/// A finished mission's outcome (CMP-3; C2M5 reads C2M4's, D40).
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "MissionOutcome"))]
struct Outcome {
    mission: String,
    completed: bool,
}

/// `GET /api/campaigns/{code}`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "CampaignStandings"))]
pub(crate) struct Standings<'a> {
    id: String,
    code: String,
    name: String,
    players_planned: u8,
    missions: u32,
    starting_rank: u8,
    dark_legion: DarkLegionMode,
    campaign: CampaignChoice,
    /// `"ce"` or `"classic"`.
    #[cfg_attr(feature = "ts", ts(type = "\"ce\" | \"classic\""))]
    edition: &'static str,
    /// How it ends (CMP-6).
    end: CampaignEnd,
    /// T of a "first to T" campaign.
    target_pp: Option<i32>,
    /// Classic: missions chosen freely (CMP-5).
    free_choice: bool,
    /// Classic: the DL band the next mission starts with (CDL-1), as the
    /// lower rank of its pair (1, 3 or 5); `null` in CE campaigns.
    next_band: Option<u8>,
    /// The missions in play order (CMP-5): all M; in a "first to T"
    /// campaign the played ones and the next round of the sequence.
    order: Vec<OrderEntry>,
    /// Classic free choice (CMP-5): the missions `next` may name (any of
    /// them, replays allowed; `index` is the position in this list). Empty
    /// otherwise.
    choices: Vec<OrderEntry>,
    players: Vec<PlayerView>,
    ai: Option<AiView>,
    history: Vec<HistoryEntry>,
    outcomes: Vec<Outcome>,
    current_game: Option<CurrentGame>,
    /// `null` while a mission is in play and when the campaign is finished.
    next_mission: Option<NextMission<'a>>,
    finished: bool,
    winners: Vec<usize>,
    ai_wins: bool,
}

async fn standings(
    State(app): State<AppState>,
    Path(code): Path<String>,
) -> Result<Json<Standings<'static>>, ServerError> {
    let ledger = &app.campaigns;
    let c = ledger.load(&code).await?;
    let (record, doc) = (c.record, c.doc);
    let content = citadel_rules::Content::embedded()
        .map_err(|e| ServerError::Internal(anyhow::anyhow!("content: {e}")))?;
    let ids = all_mission_ids();
    let shown = match doc.end {
        CampaignEnd::Missions => doc.missions as usize,
        CampaignEnd::FirstTo => doc.history.len() + sequence(doc.campaign, &ids).len(),
    };
    let entries = |list: &[&str]| -> Vec<OrderEntry> {
        list.iter()
            .enumerate()
            .filter_map(|(index, id)| {
                let m = content.mission(id)?;
                Some(OrderEntry {
                    index,
                    mission: m.id.clone(),
                    name: m.name.clone(),
                    playable: citadel_rules::game::playable::is_playable(m),
                })
            })
            .collect()
    };
    let listed = doc.order(&ids);
    let order = entries(&listed[..shown.min(listed.len())]);
    // The client offers these without knowing the rules of choice.
    let choices = if doc.free_choice && !doc.finished {
        entries(&sequence(doc.campaign, &ids))
    } else {
        Vec::new()
    };
    let next_mission = doc
        .current
        .is_none()
        .then(|| doc.next_mission(&ids))
        .flatten()
        .and_then(|id| content.mission(id))
        .map(|m| NextMission {
            index: doc.history.len(),
            brief: crate::content_api::brief(m),
        });
    let outcomes = doc
        .outcomes()
        .into_iter()
        .map(|(mission, completed)| Outcome { mission, completed })
        .collect();
    let edition = if doc.is_classic() { "classic" } else { "ce" };
    let next_band = doc.next_band();
    let players = doc
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| PlayerView {
            player: i,
            name: p.name.clone(),
            corporation: p.corporation,
            pp: p.pp,
            rank: doc.rank_of(p.pp),
            times_dl: p.times_dl,
            credits: doc.is_classic().then_some(p.credits),
            credit_bought: doc.credit_bought(i),
        })
        .collect();
    let ai = doc.ai_pp.map(|pp| AiView {
        pp,
        rank: doc.rank_of(pp),
    });
    Ok(Json(Standings {
        id: record.id,
        code: record.code,
        name: doc.name,
        players_planned: doc.planned_players,
        missions: doc.missions,
        starting_rank: doc.starting_rank,
        dark_legion: doc.dark_legion,
        campaign: doc.campaign,
        edition,
        end: doc.end,
        target_pp: doc.target_pp,
        free_choice: doc.free_choice,
        next_band,
        order,
        choices,
        players,
        ai,
        history: doc.history,
        outcomes,
        current_game: doc.current,
        next_mission,
        finished: doc.finished,
        winners: doc.winners,
        ai_wins: doc.ai_wins,
    }))
}
