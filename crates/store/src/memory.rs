//! The in-memory store: the reference behaviour the SQL stores must match.

use crate::{
    AccountRecord, CampaignMission, CampaignRecord, CommandRecord, GameRecord, LeaseRecord, Rated,
    RatingChange, RatingPoint, RatingRecord, ReplayPage, ReplayRecord, SessionRecord, Store,
    StoreError,
};
use async_trait::async_trait;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

#[derive(Debug, Default)]
struct Data {
    games: BTreeMap<String, GameRecord>,
    commands: BTreeMap<String, Vec<CommandRecord>>,
    players: BTreeSet<(String, String)>,
    accounts: BTreeMap<String, AccountRecord>,
    sessions: BTreeMap<String, SessionRecord>,
    campaigns: BTreeMap<String, CampaignRecord>,
    members: BTreeSet<(String, String)>,
    missions: BTreeMap<String, Vec<CampaignMission>>,
    replays: BTreeMap<String, ReplayRecord>,
    leases: BTreeMap<String, LeaseRecord>,
    /// By (kind, player).
    ratings: BTreeMap<(String, String), RatingRecord>,
    /// By (kind, player), oldest first.
    rating_history: BTreeMap<(String, String), Vec<RatingPoint>>,
    rated_games: BTreeSet<String>,
}

/// Everything in memory, lost on exit.
#[derive(Debug, Default)]
pub struct MemStore {
    // A std Mutex: no method awaits while holding it.
    data: Mutex<Data>,
}

impl MemStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn with<T>(&self, f: impl FnOnce(&mut Data) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let mut d = self
            .data
            .lock()
            .map_err(|_| StoreError::Backend("memory store lock poisoned".into()))?;
        f(&mut d)
    }
}

fn newest_first<T>(mut v: Vec<T>, key: impl Fn(&T) -> i64) -> Vec<T> {
    v.sort_by_key(|x| std::cmp::Reverse(key(x)));
    v
}

#[async_trait]
impl Store for MemStore {
    async fn ping(&self) -> Result<(), StoreError> {
        Ok(())
    }

    async fn listed_games(&self, started: bool, limit: i64) -> Result<Vec<GameRecord>, StoreError> {
        self.with(|d| {
            let mut found: Vec<GameRecord> = d
                .games
                .values()
                .filter(|g| {
                    g.listed
                        && g.started_at.is_some() == started
                        && g.finished_at.is_none()
                        && g.abandoned_at.is_none()
                })
                .cloned()
                .collect();
            found.sort_by(|a, b| {
                let at = |g: &GameRecord| if started { g.active_at } else { g.created_at };
                at(b).cmp(&at(a)).then_with(|| a.code.cmp(&b.code))
            });
            found.truncate(usize::try_from(limit.max(0)).unwrap_or(usize::MAX));
            Ok(found)
        })
    }

    async fn ratings(
        &self,
        kind: &str,
        players: &[String],
    ) -> Result<Vec<RatingRecord>, StoreError> {
        self.with(|d| {
            Ok(players
                .iter()
                .filter_map(|p| d.ratings.get(&(kind.to_string(), p.clone())).cloned())
                .collect())
        })
    }

    async fn rate_game(
        &self,
        code: &str,
        at: i64,
        changes: &[RatingChange],
    ) -> Result<Rated, StoreError> {
        self.with(|d| {
            if d.rated_games.contains(code) {
                return Ok(Rated::AlreadyRated);
            }
            let current = |c: &RatingChange| {
                d.ratings
                    .get(&(c.after.kind.clone(), c.after.player.clone()))
                    .map_or(0, |r| r.games)
            };
            if changes.iter().any(|c| current(c) != c.from_games) {
                return Ok(Rated::Conflict);
            }
            d.rated_games.insert(code.to_string());
            for c in changes {
                let key = (c.after.kind.clone(), c.after.player.clone());
                d.ratings.insert(key.clone(), c.after.clone());
                let history = d.rating_history.entry(key).or_default();
                history.retain(|p| p.code != code);
                history.push(RatingPoint {
                    code: code.to_string(),
                    at,
                    rating: c.after.rating,
                    deviation: c.after.deviation,
                });
                history.sort_by(|a, b| (a.at, &a.code).cmp(&(b.at, &b.code)));
            }
            Ok(Rated::Applied)
        })
    }

    async fn leaderboard(
        &self,
        kind: &str,
        max_deviation: f64,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<RatingRecord>, StoreError> {
        self.with(|d| {
            let mut board: Vec<RatingRecord> = d
                .ratings
                .values()
                .filter(|r| r.kind == kind && r.deviation <= max_deviation)
                .cloned()
                .collect();
            board.sort_by(|a, b| {
                b.rating
                    .total_cmp(&a.rating)
                    .then_with(|| a.name.cmp(&b.name))
                    .then_with(|| a.player.cmp(&b.player))
            });
            Ok(board
                .into_iter()
                .skip(usize::try_from(offset.max(0)).unwrap_or(usize::MAX))
                .take(usize::try_from(limit.max(0)).unwrap_or(usize::MAX))
                .collect())
        })
    }

    async fn ratings_of_player(&self, player: &str) -> Result<Vec<RatingRecord>, StoreError> {
        self.with(|d| {
            Ok(d.ratings
                .values()
                .filter(|r| r.player == player)
                .cloned()
                .collect())
        })
    }

    async fn rating_history(
        &self,
        kind: &str,
        player: &str,
        limit: i64,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        self.with(|d| {
            let all = d
                .rating_history
                .get(&(kind.to_string(), player.to_string()))
                .cloned()
                .unwrap_or_default();
            let keep = usize::try_from(limit.max(0)).unwrap_or(usize::MAX);
            Ok(all[all.len().saturating_sub(keep)..].to_vec())
        })
    }

    async fn create_game(&self, game: &GameRecord) -> Result<(), StoreError> {
        self.with(|d| {
            if d.games.contains_key(&game.code) {
                return Err(StoreError::Conflict(format!("game {}", game.code)));
            }
            d.games.insert(game.code.clone(), game.clone());
            Ok(())
        })
    }

    async fn update_lobby(&self, code: &str, lobby: &str) -> Result<(), StoreError> {
        self.with(|d| {
            let g = d
                .games
                .get_mut(code)
                .ok_or_else(|| StoreError::NotFound(code.into()))?;
            g.lobby = lobby.to_string();
            Ok(())
        })
    }

    async fn start_game(
        &self,
        code: &str,
        setup: &str,
        lobby: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        self.with(|d| {
            let g = d
                .games
                .get_mut(code)
                .ok_or_else(|| StoreError::NotFound(code.into()))?;
            g.setup = Some(setup.to_string());
            g.lobby = lobby.to_string();
            g.started_at = Some(at);
            Ok(())
        })
    }

    async fn append_commands(&self, commands: &[CommandRecord]) -> Result<(), StoreError> {
        self.with(|d| {
            // Check everything first: all or nothing, like a transaction.
            let mut next: BTreeMap<&str, i64> = BTreeMap::new();
            for c in commands {
                if !d.games.contains_key(&c.code) {
                    return Err(StoreError::NotFound(c.code.clone()));
                }
                let n = next
                    .entry(&c.code)
                    .or_insert_with(|| d.commands.get(&c.code).map_or(0, |v| v.len() as i64));
                if c.index != *n {
                    return Err(StoreError::Conflict(format!(
                        "command {} of {}",
                        c.index, c.code
                    )));
                }
                *n += 1;
            }
            for c in commands {
                d.commands
                    .entry(c.code.clone())
                    .or_default()
                    .push(c.clone());
            }
            Ok(())
        })
    }

    async fn finish_game(&self, code: &str, result: &str, at: i64) -> Result<(), StoreError> {
        self.with(|d| {
            let g = d
                .games
                .get_mut(code)
                .ok_or_else(|| StoreError::NotFound(code.into()))?;
            g.result = Some(result.to_string());
            g.finished_at = Some(at);
            Ok(())
        })
    }

    async fn game(&self, code: &str) -> Result<Option<GameRecord>, StoreError> {
        self.with(|d| Ok(d.games.get(code).cloned()))
    }

    async fn commands(&self, code: &str) -> Result<Vec<CommandRecord>, StoreError> {
        self.with(|d| Ok(d.commands.get(code).cloned().unwrap_or_default()))
    }

    async fn set_rules_version(
        &self,
        code: &str,
        engine_version: i64,
        content_hash: &str,
    ) -> Result<(), StoreError> {
        self.with(|d| {
            let g = d
                .games
                .get_mut(code)
                .ok_or_else(|| StoreError::NotFound(code.into()))?;
            g.engine_version = engine_version;
            g.content_hash = content_hash.to_string();
            Ok(())
        })
    }

    async fn save_replay(&self, code: &str, replay: &ReplayRecord) -> Result<(), StoreError> {
        self.with(|d| {
            if !d.games.contains_key(code) {
                return Err(StoreError::NotFound(code.into()));
            }
            d.replays.insert(code.to_string(), replay.clone());
            Ok(())
        })
    }

    async fn replay_page(
        &self,
        code: &str,
        from: i64,
        count: i64,
    ) -> Result<Option<ReplayPage>, StoreError> {
        self.with(|d| {
            Ok(d.replays.get(code).map(|r| {
                let from = usize::try_from(from.max(0)).unwrap_or(usize::MAX);
                let count = usize::try_from(count.max(0)).unwrap_or(usize::MAX);
                ReplayPage {
                    header: r.header.clone(),
                    total_steps: r.steps.len() as i64,
                    steps: r.steps.iter().skip(from).take(count).cloned().collect(),
                }
            }))
        })
    }

    async fn unfinished_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.with(|d| {
            let mut v: Vec<GameRecord> = d
                .games
                .values()
                .filter(|g| g.finished_at.is_none())
                .cloned()
                .collect();
            v.sort_by(|a, b| (a.created_at, &a.code).cmp(&(b.created_at, &b.code)));
            Ok(v)
        })
    }

    async fn touch_game(&self, code: &str, at: i64) -> Result<(), StoreError> {
        self.with(|d| {
            let g = d
                .games
                .get_mut(code)
                .ok_or_else(|| StoreError::NotFound(code.into()))?;
            g.active_at = g.active_at.max(at);
            Ok(())
        })
    }

    async fn idle_games(
        &self,
        lobby_before: i64,
        started_before: i64,
    ) -> Result<Vec<String>, StoreError> {
        self.with(|d| {
            let mut v: Vec<&GameRecord> = d
                .games
                .values()
                .filter(|g| g.finished_at.is_none())
                .filter(|g| {
                    let before = match g.started_at {
                        None => lobby_before,
                        Some(_) => started_before,
                    };
                    g.active_at < before
                })
                .collect();
            v.sort_by(|a, b| (a.active_at, &a.code).cmp(&(b.active_at, &b.code)));
            Ok(v.into_iter().map(|g| g.code.clone()).collect())
        })
    }

    async fn abandon_game(&self, code: &str, at: i64) -> Result<bool, StoreError> {
        self.with(|d| {
            let g = d
                .games
                .get_mut(code)
                .ok_or_else(|| StoreError::NotFound(code.into()))?;
            if g.finished_at.is_some() {
                return Ok(false);
            }
            g.finished_at = Some(at);
            g.abandoned_at = Some(at);
            Ok(true)
        })
    }

    async fn link_player(&self, code: &str, _seat: u8, account_id: &str) -> Result<(), StoreError> {
        self.with(|d| {
            if !d.games.contains_key(code) {
                return Err(StoreError::NotFound(code.into()));
            }
            d.players.insert((account_id.to_string(), code.to_string()));
            Ok(())
        })
    }

    async fn games_of_account(&self, account_id: &str) -> Result<Vec<GameRecord>, StoreError> {
        self.with(|d| {
            let v = d
                .players
                .iter()
                .filter(|(a, _)| a == account_id)
                .filter_map(|(_, c)| d.games.get(c).cloned())
                .collect();
            Ok(newest_first(v, |g| g.created_at))
        })
    }

    async fn create_account(&self, account: &AccountRecord) -> Result<(), StoreError> {
        self.with(|d| {
            let taken = d
                .accounts
                .values()
                .any(|a| a.name.to_lowercase() == account.name.to_lowercase());
            if taken || d.accounts.contains_key(&account.id) {
                return Err(StoreError::Conflict(format!("account {}", account.name)));
            }
            d.accounts.insert(account.id.clone(), account.clone());
            Ok(())
        })
    }

    async fn account_by_name(&self, name: &str) -> Result<Option<AccountRecord>, StoreError> {
        self.with(|d| {
            Ok(d.accounts
                .values()
                .find(|a| a.name.to_lowercase() == name.to_lowercase())
                .cloned())
        })
    }

    async fn account(&self, id: &str) -> Result<Option<AccountRecord>, StoreError> {
        self.with(|d| Ok(d.accounts.get(id).cloned()))
    }

    async fn create_session(&self, session: &SessionRecord) -> Result<(), StoreError> {
        self.with(|d| {
            if !d.accounts.contains_key(&session.account_id) {
                return Err(StoreError::NotFound(session.account_id.clone()));
            }
            d.sessions
                .insert(session.token_hash.clone(), session.clone());
            Ok(())
        })
    }

    async fn session(&self, token_hash: &str) -> Result<Option<SessionRecord>, StoreError> {
        self.with(|d| Ok(d.sessions.get(token_hash).cloned()))
    }

    async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        self.with(|d| {
            d.sessions.remove(token_hash);
            Ok(())
        })
    }

    async fn create_campaign(&self, c: &CampaignRecord) -> Result<(), StoreError> {
        self.with(|d| {
            if d.campaigns.contains_key(&c.id) || d.campaigns.values().any(|x| x.code == c.code) {
                return Err(StoreError::Conflict(format!("campaign {}", c.code)));
            }
            d.campaigns.insert(c.id.clone(), c.clone());
            Ok(())
        })
    }

    async fn update_campaign(&self, c: &CampaignRecord) -> Result<(), StoreError> {
        self.with(|d| {
            let x = d
                .campaigns
                .get_mut(&c.id)
                .ok_or_else(|| StoreError::NotFound(c.id.clone()))?;
            if x.version != c.version {
                return Err(StoreError::Stale(format!("campaign {}", c.id)));
            }
            x.version += 1;
            x.state = c.state.clone();
            x.finished_at = c.finished_at;
            x.name = c.name.clone();
            Ok(())
        })
    }

    async fn campaign(&self, id: &str) -> Result<Option<CampaignRecord>, StoreError> {
        self.with(|d| Ok(d.campaigns.get(id).cloned()))
    }

    async fn campaign_by_code(&self, code: &str) -> Result<Option<CampaignRecord>, StoreError> {
        self.with(|d| Ok(d.campaigns.values().find(|c| c.code == code).cloned()))
    }

    async fn link_campaign_member(
        &self,
        campaign: &str,
        account_id: &str,
    ) -> Result<(), StoreError> {
        self.with(|d| {
            if !d.campaigns.contains_key(campaign) {
                return Err(StoreError::NotFound(campaign.into()));
            }
            d.members
                .insert((account_id.to_string(), campaign.to_string()));
            Ok(())
        })
    }

    async fn campaigns_of_account(
        &self,
        account_id: &str,
    ) -> Result<Vec<CampaignRecord>, StoreError> {
        self.with(|d| {
            let v = d
                .members
                .iter()
                .filter(|(a, _)| a == account_id)
                .filter_map(|(_, c)| d.campaigns.get(c).cloned())
                .collect();
            Ok(newest_first(v, |c| c.created_at))
        })
    }

    async fn add_campaign_mission(&self, m: &CampaignMission) -> Result<(), StoreError> {
        self.with(|d| {
            if !d.campaigns.contains_key(&m.campaign) {
                return Err(StoreError::NotFound(m.campaign.clone()));
            }
            let list = d.missions.entry(m.campaign.clone()).or_default();
            if list.len() as i64 != m.index {
                return Err(StoreError::Conflict(format!(
                    "mission {} of {}",
                    m.index, m.campaign
                )));
            }
            list.push(m.clone());
            Ok(())
        })
    }

    async fn campaign_missions(&self, campaign: &str) -> Result<Vec<CampaignMission>, StoreError> {
        self.with(|d| Ok(d.missions.get(campaign).cloned().unwrap_or_default()))
    }

    async fn acquire_lease(
        &self,
        code: &str,
        owner: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<bool, StoreError> {
        self.with(|d| {
            if let Some(l) = d.leases.get(code) {
                if l.owner != owner && l.expires_at > now {
                    return Ok(false);
                }
            }
            d.leases.insert(
                code.to_string(),
                LeaseRecord {
                    code: code.to_string(),
                    owner: owner.to_string(),
                    expires_at,
                },
            );
            Ok(true)
        })
    }

    async fn renew_leases(&self, owner: &str, expires_at: i64) -> Result<Vec<String>, StoreError> {
        self.with(|d| {
            let mut held = Vec::new();
            for l in d.leases.values_mut().filter(|l| l.owner == owner) {
                l.expires_at = expires_at;
                held.push(l.code.clone());
            }
            Ok(held)
        })
    }

    async fn release_lease(&self, code: &str, owner: &str) -> Result<(), StoreError> {
        self.with(|d| {
            if d.leases.get(code).is_some_and(|l| l.owner == owner) {
                d.leases.remove(code);
            }
            Ok(())
        })
    }

    async fn expired_leases(&self, now: i64) -> Result<Vec<String>, StoreError> {
        self.with(|d| {
            let mut expired: Vec<&LeaseRecord> =
                d.leases.values().filter(|l| l.expires_at <= now).collect();
            expired.sort_by(|a, b| (a.expires_at, &a.code).cmp(&(b.expires_at, &b.code)));
            Ok(expired.into_iter().map(|l| l.code.clone()).collect())
        })
    }

    async fn lease(&self, code: &str) -> Result<Option<LeaseRecord>, StoreError> {
        self.with(|d| Ok(d.leases.get(code).cloned()))
    }
}
