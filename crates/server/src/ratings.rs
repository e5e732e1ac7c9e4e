//! Ratings (issue 31): a rated table's end moves its players' Glicko-2
//! ratings in that game (`citadel-ratings` does the arithmetic), exactly
//! once per game, and the leaderboards and profiles read them back.
//! docs/RATINGS.md says how sides, guests, bots and hotseat are read.

use crate::session::RatedGame;
use citadel_ratings::{rate, result_of, Entrant, Rating, Result as GameResult, NEWCOMER};
use citadel_store::{Millis, Rated, RatingChange, RatingRecord, Store, StoreError};
use std::collections::BTreeSet;

/// How often a rating write is tried again after another game moved one
/// of the same ratings in between (each try reads them anew).
const CONFLICT_TRIES: usize = 8;

/// Why a rated game was left unrated (it is logged, not an error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unrated {
    /// One player held several seats (hotseat): no one to be rated
    /// against.
    SharedSeats,
    /// No seat is anyone's to record (guests only).
    NoOneRecorded,
}

/// Apply a finished rated game to the ratings in `store`: read the seats'
/// ratings, compute every seat's new one and write them at once; again
/// from a fresh read when another game moved one of them in between.
///
/// # Errors
/// A store error, or ratings that kept changing under it.
pub async fn rate_game(
    store: &dyn Store,
    code: &str,
    game: &RatedGame,
    at: Millis,
) -> Result<std::result::Result<Rated, Unrated>, StoreError> {
    let players: Vec<String> = game.seats.iter().filter_map(|s| s.player.clone()).collect();
    let distinct: BTreeSet<&String> = players.iter().collect();
    if distinct.len() != players.len() {
        return Ok(Err(Unrated::SharedSeats));
    }
    if players.is_empty() {
        return Ok(Err(Unrated::NoOneRecorded));
    }
    for _ in 0..CONFLICT_TRIES {
        let known = store.ratings(&game.kind, &players).await?;
        let before = |player: &Option<String>| {
            player
                .as_ref()
                .and_then(|p| known.iter().find(|r| &r.player == p))
        };
        let entrants: Vec<Entrant> = game
            .seats
            .iter()
            .map(|s| Entrant {
                team: s.team,
                place: s.place,
                rating: before(&s.player).map_or(NEWCOMER, |r| Rating {
                    rating: r.rating,
                    deviation: r.deviation,
                    volatility: r.volatility,
                }),
            })
            .collect();
        let after = rate(&entrants);
        let changes: Vec<RatingChange> = game
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let player = s.player.clone()?;
                let old = before(&s.player);
                let new = after.get(i)?;
                let result = result_of(&entrants, i)?;
                let count = |r: GameResult| i64::from(result == r);
                Some(RatingChange {
                    from_games: old.map_or(0, |r| r.games),
                    after: RatingRecord {
                        kind: game.kind.clone(),
                        player,
                        name: s.name.clone(),
                        rating: new.rating,
                        deviation: new.deviation,
                        volatility: new.volatility,
                        games: old.map_or(0, |r| r.games) + 1,
                        wins: old.map_or(0, |r| r.wins) + count(GameResult::Win),
                        draws: old.map_or(0, |r| r.draws) + count(GameResult::Draw),
                        losses: old.map_or(0, |r| r.losses) + count(GameResult::Loss),
                        updated_at: at,
                    },
                })
            })
            .collect();
        match store.rate_game(code, at, &changes).await? {
            Rated::Conflict => continue,
            done => return Ok(Ok(done)),
        }
    }
    Err(StoreError::Conflict(format!(
        "the ratings of {code} kept changing"
    )))
}

// ---------------------------------------------------------------- HTTP

use crate::accounts::MyGame;
use crate::error::ServerError;
use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use citadel_ratings::PROVISIONAL_DEVIATION;
use serde::{Deserialize, Serialize};

/// Most rows in one leaderboard page.
pub const MAX_PAGE: i64 = 100;

/// Points of each rating history a profile shows.
pub const HISTORY_POINTS: i64 = 200;

/// Finished games a profile lists.
pub const RECENT_GAMES: usize = 20;

/// The routes: `GET /api/leaderboards/{kind}`, `GET /api/players/{name}`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/leaderboards/{kind}", get(leaderboard))
        .route("/api/players/{name}", get(player))
}

/// A rating as clients see it: rounded, with what it rests on.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RatingLine {
    /// The game (catalogue id).
    pub kind: String,
    /// Who: its name, and whether it is a bot.
    pub name: String,
    /// `true` for a bot (its name is the bot's).
    pub bot: bool,
    /// The Glicko-2 rating, rounded.
    pub rating: i64,
    /// The rating deviation, rounded.
    pub deviation: i64,
    /// Still provisional: the deviation is above 110 (shown with a "?").
    pub provisional: bool,
    /// Rated games, and of them won, drawn and lost.
    pub games: i64,
    /// Won.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
}

impl RatingLine {
    fn of(r: &RatingRecord) -> Self {
        RatingLine {
            kind: r.kind.clone(),
            name: r.name.clone(),
            bot: r.player.starts_with("bot:"),
            rating: r.rating.round() as i64,
            deviation: r.deviation.round() as i64,
            provisional: r.deviation > PROVISIONAL_DEVIATION,
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
        }
    }
}

/// Which leaderboard rows: `offset` (default 0), `limit` (default and
/// cap [`MAX_PAGE`]).
#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub struct BoardPage {
    /// First rank shown, from 0.
    pub offset: Option<i64>,
    /// Rows.
    pub limit: Option<i64>,
}

/// `GET /api/leaderboards/{kind}`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Leaderboard {
    /// The game.
    pub kind: String,
    /// The rank of the first row (1 for the best).
    pub first_rank: i64,
    /// Best first; provisional ratings are left out.
    pub players: Vec<RatingLine>,
}

/// `GET /api/leaderboards/{kind}`: a game's established ratings, best
/// first (404 for a game the server does not play).
async fn leaderboard(
    State(app): State<AppState>,
    Path(kind): Path<String>,
    Query(page): Query<BoardPage>,
) -> Result<Json<Leaderboard>, ServerError> {
    if app.config.games.get(&kind).is_none() {
        return Err(ServerError::Missing(format!("no game {kind} here")));
    }
    let offset = page.offset.unwrap_or(0).max(0);
    let limit = page.limit.unwrap_or(MAX_PAGE).clamp(0, MAX_PAGE);
    let rows = app
        .store
        .leaderboard(&kind, PROVISIONAL_DEVIATION, limit, offset)
        .await?;
    Ok(Json(Leaderboard {
        kind,
        first_rank: offset + 1,
        players: rows.iter().map(RatingLine::of).collect(),
    }))
}

/// One game's rating of a player, with its history.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlayerRating {
    /// The rating now.
    #[serde(flatten)]
    pub now: RatingLine,
    /// After each rated game, oldest first (the last 200).
    pub history: Vec<HistoryPoint>,
}

/// The rating after one rated game.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HistoryPoint {
    /// The game.
    pub code: String,
    /// When it ended (Unix milliseconds).
    pub at: i64,
    /// The rating after it, rounded.
    pub rating: i64,
    /// The deviation after it, rounded.
    pub deviation: i64,
}

/// `GET /api/players/{name}`: an account's public profile.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Profile {
    /// The name as registered.
    pub name: String,
    /// When the account was made (Unix milliseconds).
    pub created_at: i64,
    /// Its rating in every game it played rated.
    pub ratings: Vec<PlayerRating>,
    /// Its last finished public games (listed or rated; a private
    /// table's code stays its players'), newest first (replays at
    /// `/api/games/{code}/replay`).
    pub recent_games: Vec<MyGame>,
}

/// `GET /api/players/{name}`: 404 for no such account.
async fn player(
    State(app): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Profile>, ServerError> {
    let account = app
        .store
        .account_by_name(&name)
        .await?
        .ok_or_else(|| ServerError::Missing(format!("no player {name}")))?;
    let key = format!("account:{}", account.id);
    let mut ratings = Vec::new();
    for r in app.store.ratings_of_player(&key).await? {
        let history = app
            .store
            .rating_history(&r.kind, &key, HISTORY_POINTS)
            .await?;
        ratings.push(PlayerRating {
            now: RatingLine::of(&r),
            history: history
                .into_iter()
                .map(|p| HistoryPoint {
                    code: p.code,
                    at: p.at,
                    rating: p.rating.round() as i64,
                    deviation: p.deviation.round() as i64,
                })
                .collect(),
        });
    }
    let recent_games = app
        .store
        .games_of_account(&account.id)
        .await?
        .into_iter()
        .map(MyGame::of)
        .filter(|g| g.is_finished() && g.is_public())
        .take(RECENT_GAMES)
        .collect();
    Ok(Json(Profile {
        name: account.name,
        created_at: account.created_at,
        ratings,
        recent_games,
    }))
}
