//! Beyond the Rift's text position format: a whole game state as `key value` lines, for tests,
//! bug reports and `sololab play --position`.
//!
//! ```text
//! beyond-position 1
//! content builtin
//! game scenario=Out_Through_the_Side_Entrance campaign=- campaign_pos=0 alt_unlocked=0 draw_full=0 heroes=2 threat=1 round=1 phase=hero pending=none actions=0 scenario_action_used=0 rewards_left=0 result=0 decisions=0 seq=1
//! tally rounds=1 wounds_taken=0 defeated=0 threat_max=1 played=0 won=0
//! hero 1 name=Bastian side=0 points=4 known=0 items=-,-,-,-,-
//! hero 1 deck Plate_Guard,Rally,...      (bottom first; the top card is last)
//! hero 1 discard -
//! hero 1 hand Longsword_Slash,Charge,...
//! hero 1 persist 1 card=Stand_Firm owner=1 opt=1 uses=2 attach=-
//! enemy 1 kind=Guard area=quest seq=0 attach=Wound:_Gash
//! enemy_deck Guard,Acolyte,...           (bottom first)
//! terrain_deck Rubble,Side_Door
//! terrain Side_Door
//! wound_deck ...  wound_discard ...  fatigue_deck ...  fatigue_discard ...
//! response_deck 17,3,...                 (indices of the content's response cards, 0-based)
//! response_discard -
//! item_deck -
//! attack hero=1 target=1 total=3 symbols=0 cards=Longsword_Slash@1.1
//! defend hero=1 enemy=1 total=0 spent=0 cards=-
//! cursor column=1 row=1 enemy=- act=0 eligible=0 done=0 rank=1,2,3,4 ranked=0 followers=0 order=0 follower=- ability=0 ability_value=0
//! ```
//! Names use `_` for spaces; `-` means none or empty. Heroes, enemy slots, persistent slots
//! and areas are 1-based (`area=quest` or a hero number); `target` of an attack is an enemy slot
//! (1-based) or `tN` for terrain N. A committed card is `NAME@HERO.OPTION`. `pending` is
//! `none`, `attack`, `defend`, `cycle:H:COUNT`, `intimidate:H:LEFT`, `discard_down:H`,
//! `pick_target:MASK`, `pick_heal:MASK:LEFT`, `redirect:H`, `equip:ITEM`, `side:H`.
//! Lines may come in any order; `#` starts a comment; missing lines keep the empty state's
//! values. [`parse`] refuses unknown names, values out of range and piles over capacity, at the
//! line that has them; and a state the game could not go on from, at its `game` or `cursor`
//! line: a `pending` decision of another phase than `phase` (or none where the phase waits on
//! one), or one whose hero, cards, enemies or campaign step do not exist (an Intimidate with
//! nothing to discard, a Heal of an enemy without attachments, an Equip outside a campaign),
//! `phase=over` without a result, and an Enemy Phase cursor whose followers or target order
//! name no enemy or hero.

use super::actions::BeyondAction as A;
use super::content::{self, Content, NO_CARD};
use super::state::{Beyond, DECK, HAND, MAX_ATTACH, MAX_ENEMIES, Pending, Phase, Pile, QUEST};
use crate::game::PositionError;
use crate::position_text;

fn enc(s: &str) -> String {
    s.replace(' ', "_")
}

fn pile_names<const N: usize>(p: &Pile<N>, name: impl Fn(u8) -> String) -> String {
    if p.is_empty() {
        return "-".to_string();
    }
    p.as_slice()
        .iter()
        .map(|&c| enc(&name(c)))
        .collect::<Vec<_>>()
        .join(",")
}

fn opt_idx(v: u8) -> String {
    if v == NO_CARD {
        "-".to_string()
    } else {
        (v as u32 + 1).to_string()
    }
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Hero => "hero",
        Phase::Enemy => "enemy",
        Phase::Draw => "draw",
        Phase::Campaign => "campaign",
        Phase::Over => "over",
    }
}

fn pending_text(p: Pending) -> String {
    match p {
        Pending::None => "none".into(),
        Pending::Attack => "attack".into(),
        Pending::Defend => "defend".into(),
        Pending::Cycle { hero, count } => format!("cycle:{}:{count}", hero + 1),
        Pending::Intimidate { hero, left } => format!("intimidate:{}:{left}", hero + 1),
        Pending::DiscardDown { hero } => format!("discard_down:{}", hero + 1),
        Pending::PickTarget { tied } => format!("pick_target:{tied}"),
        Pending::PickHeal { cands, left } => format!("pick_heal:{cands}:{left}"),
        Pending::Redirect { hero } => format!("redirect:{}", hero + 1),
        Pending::Equip { item } => format!("equip:{}", item + 1),
        Pending::Side { hero } => format!("side:{}", hero + 1),
    }
}

/// Writes the position text of `b` (loads back with [`parse`] to an equal state).
pub fn write(b: &Beyond) -> String {
    let c = b.content;
    let card = |x: u8| c.cards[x as usize].name.clone();
    let mut s = String::new();
    s.push_str("beyond-position 1\n");
    s.push_str(&format!("content {}\n", c.source));
    s.push_str(&format!(
        "game scenario={} campaign={} campaign_pos={} alt_unlocked={} draw_full={} heroes={} threat={} round={} phase={} pending={} actions={} scenario_action_used={} rewards_left={} result={} decisions={} seq={}\n",
        enc(&c.scenarios[b.scenario as usize].name),
        if b.campaign == NO_CARD {
            "-".to_string()
        } else {
            enc(&c.campaigns[b.campaign as usize].name)
        },
        b.campaign_pos,
        u8::from(b.alt_unlocked),
        u8::from(b.draw_full),
        b.n_heroes,
        b.threat,
        b.round,
        phase_name(b.phase),
        pending_text(b.pending),
        b.actions,
        u8::from(b.scenario_action_used),
        b.rewards_left,
        b.result,
        b.decisions,
        b.seq
    ));
    let t = b.tally;
    s.push_str(&format!(
        "tally rounds={} wounds_taken={} defeated={} threat_max={} played={} won={}\n",
        t.rounds, t.wounds_taken, t.defeated, t.threat_max, t.played, t.won
    ));
    for h in 0..b.n_heroes as usize {
        let hs = &b.heroes[h];
        let n = h + 1;
        let items: Vec<String> = hs
            .items
            .iter()
            .map(|&i| {
                if i == NO_CARD {
                    "-".to_string()
                } else {
                    enc(&c.items[i as usize].name)
                }
            })
            .collect();
        s.push_str(&format!(
            "hero {n} name={} side={} points={} known={} items={}\n",
            enc(&c.heroes[hs.hero as usize].name),
            hs.side,
            hs.points,
            hs.known,
            items.join(",")
        ));
        s.push_str(&format!("hero {n} deck {}\n", pile_names(&hs.deck, card)));
        s.push_str(&format!(
            "hero {n} discard {}\n",
            pile_names(&hs.discard, card)
        ));
        s.push_str(&format!("hero {n} hand {}\n", pile_names(&hs.hand, card)));
        for (i, p) in hs.persist.iter().enumerate() {
            if p.card != NO_CARD {
                s.push_str(&format!(
                    "hero {n} persist {} card={} owner={} opt={} uses={} attach={}\n",
                    i + 1,
                    enc(&card(p.card)),
                    p.owner + 1,
                    p.opt + 1,
                    p.uses,
                    pile_names(&p.attach, card)
                ));
            }
        }
    }
    for (i, e) in b.enemies.iter().enumerate() {
        if e.alive() {
            s.push_str(&format!(
                "enemy {} kind={} area={} seq={} attach={}\n",
                i + 1,
                enc(&c.enemies[e.kind as usize].name),
                area_text(e.area),
                e.seq,
                pile_names(&e.attach, card)
            ));
        }
    }
    let en = |x: u8| c.enemies[x as usize].name.clone();
    let tn = |x: u8| c.terrain[x as usize].name.clone();
    let it = |x: u8| c.items[x as usize].name.clone();
    let num = |x: u8| x.to_string();
    s.push_str(&format!("enemy_deck {}\n", pile_names(&b.enemy_deck, en)));
    s.push_str(&format!(
        "terrain_deck {}\n",
        pile_names(&b.terrain_deck, tn)
    ));
    s.push_str(&format!("terrain {}\n", pile_names(&b.terrain, tn)));
    s.push_str(&format!("wound_deck {}\n", pile_names(&b.wound_deck, card)));
    s.push_str(&format!(
        "wound_discard {}\n",
        pile_names(&b.wound_discard, card)
    ));
    s.push_str(&format!(
        "fatigue_deck {}\n",
        pile_names(&b.fatigue_deck, card)
    ));
    s.push_str(&format!(
        "fatigue_discard {}\n",
        pile_names(&b.fatigue_discard, card)
    ));
    s.push_str(&format!(
        "response_deck {}\n",
        pile_names(&b.response_deck, num)
    ));
    s.push_str(&format!(
        "response_discard {}\n",
        pile_names(&b.response_discard, num)
    ));
    s.push_str(&format!("item_deck {}\n", pile_names(&b.item_deck, it)));
    let commits = |cards: &[u8], owners: &[u8], n: u8| -> String {
        if n == 0 {
            return "-".to_string();
        }
        (0..n as usize)
            .map(|k| {
                format!(
                    "{}@{}.{}",
                    enc(&card(cards[k])),
                    owners[k] / 2 + 1,
                    owners[k] % 2 + 1
                )
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let a = &b.attack;
    s.push_str(&format!(
        "attack hero={} target={} total={} symbols={} cards={}\n",
        a.hero + 1,
        if a.target >= super::state::TERRAIN_TARGET {
            format!("t{}", a.target - super::state::TERRAIN_TARGET + 1)
        } else {
            (a.target + 1).to_string()
        },
        a.total,
        a.symbols,
        commits(&a.cards, &a.owners, a.n)
    ));
    let d = &b.defend;
    s.push_str(&format!(
        "defend hero={} enemy={} total={} spent={} cards={}\n",
        d.hero + 1,
        d.enemy + 1,
        d.total,
        d.spent,
        commits(&d.cards, &d.owners, d.n)
    ));
    let k = &b.cursor;
    s.push_str(&format!(
        "cursor column={} row={} enemy={} act={} eligible={} done={} rank={} ranked={} followers={} order={} follower={} ability={} ability_value={}\n",
        k.column,
        k.row + 1,
        opt_idx(k.enemy),
        k.act,
        k.eligible,
        k.done,
        k.rank.iter().map(|r| (r + 1).to_string()).collect::<Vec<_>>().join(","),
        u8::from(k.ranked),
        k.followers,
        k.order,
        opt_idx(k.follower),
        k.ability,
        k.ability_value
    ));
    s
}

fn area_text(a: u8) -> String {
    if a == QUEST {
        "quest".to_string()
    } else {
        (a + 1).to_string()
    }
}

struct Ctx {
    line: usize,
    content: &'static Content,
}

impl Ctx {
    fn err(&self, m: impl Into<String>) -> PositionError {
        PositionError {
            line: self.line,
            message: m.into(),
        }
    }
}

fn kv<'a>(ctx: &Ctx, parts: &[&'a str]) -> Result<Vec<(&'a str, &'a str)>, PositionError> {
    parts
        .iter()
        .map(|p| {
            p.split_once('=')
                .ok_or_else(|| ctx.err(format!("'{p}' is not KEY=VALUE")))
        })
        .collect()
}

fn num<T: std::str::FromStr>(ctx: &Ctx, key: &str, v: &str) -> Result<T, PositionError> {
    v.parse()
        .map_err(|_| ctx.err(format!("{key}: '{v}' is not a valid number")))
}

fn flag(ctx: &Ctx, key: &str, v: &str) -> Result<bool, PositionError> {
    match v {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(ctx.err(format!("{key}: '{v}' is not 0 or 1"))),
    }
}

fn index1(ctx: &Ctx, key: &str, v: &str, max: usize) -> Result<u8, PositionError> {
    let n: usize = num(ctx, key, v)?;
    if n == 0 || n > max {
        return Err(ctx.err(format!("{key}: {n} is not in 1..={max}")));
    }
    Ok((n - 1) as u8)
}

fn lookup(
    ctx: &Ctx,
    what: &str,
    v: &str,
    f: impl Fn(&str) -> Option<u8>,
) -> Result<u8, PositionError> {
    f(&v.replace('_', " ")).ok_or_else(|| {
        let c = ctx.content;
        let names: Vec<String> = match what {
            "card" => c.cards.iter().map(|x| enc(&x.name)).collect(),
            "enemy" => c.enemies.iter().map(|x| enc(&x.name)).collect(),
            "terrain" => c.terrain.iter().map(|x| enc(&x.name)).collect(),
            "hero" => c.heroes.iter().map(|x| enc(&x.name)).collect(),
            "scenario" => c.scenarios.iter().map(|x| enc(&x.name)).collect(),
            "campaign" => c.campaigns.iter().map(|x| enc(&x.name)).collect(),
            "item" => c.items.iter().map(|x| enc(&x.name)).collect(),
            _ => Vec::new(),
        };
        if names.is_empty() {
            ctx.err(format!("unknown {what} '{v}'"))
        } else {
            ctx.err(format!(
                "unknown {what} '{v}' (valid: {})",
                names.join(", ")
            ))
        }
    })
}

fn read_pile<const N: usize>(
    ctx: &Ctx,
    what: &str,
    v: &str,
    f: impl Fn(&str) -> Option<u8>,
) -> Result<Pile<N>, PositionError> {
    let mut p = Pile::<N>::default();
    if v == "-" || v.is_empty() {
        return Ok(p);
    }
    for name in v.split(',') {
        if p.full() {
            return Err(ctx.err(format!("{what}: more than {N} cards")));
        }
        p.push(lookup(ctx, what, name, &f)?);
    }
    Ok(p)
}

fn read_pending(ctx: &Ctx, v: &str) -> Result<Pending, PositionError> {
    let parts: Vec<&str> = v.split(':').collect();
    let n = |i: usize| -> Result<u16, PositionError> {
        parts
            .get(i)
            .ok_or_else(|| ctx.err(format!("pending '{v}' is missing a value")))
            .and_then(|x| num::<u16>(ctx, "pending", x))
    };
    let hero = |i: usize| -> Result<u8, PositionError> {
        let h = n(i)?;
        if !(1..=4).contains(&h) {
            return Err(ctx.err(format!("pending '{v}': hero {h} not in 1..=4")));
        }
        Ok(h as u8 - 1)
    };
    Ok(match parts[0] {
        "none" => Pending::None,
        "attack" => Pending::Attack,
        "defend" => Pending::Defend,
        "cycle" => Pending::Cycle {
            hero: hero(1)?,
            count: n(2)?.min(255) as u8,
        },
        "intimidate" => Pending::Intimidate {
            hero: hero(1)?,
            left: n(2)?.min(9) as u8,
        },
        "discard_down" => Pending::DiscardDown { hero: hero(1)? },
        "pick_target" => Pending::PickTarget {
            tied: (n(1)? & 15) as u8,
        },
        "pick_heal" => Pending::PickHeal {
            cands: n(1)? & ((1 << MAX_ENEMIES) - 1),
            left: n(2)?.min(9) as u8,
        },
        "redirect" => Pending::Redirect { hero: hero(1)? },
        "equip" => Pending::Equip {
            item: n(1)?.saturating_sub(1).min(254) as u8,
        },
        "side" => Pending::Side { hero: hero(1)? },
        other => return Err(ctx.err(format!("unknown pending '{other}'"))),
    })
}

/// Reads a position.
///
/// # Errors
/// A [`PositionError`] naming the 1-based line: an unknown line or key, an unknown name, a
/// number out of range, a pile over its capacity, a content file that cannot be loaded.
pub fn parse(text: &str) -> Result<Beyond, PositionError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut content: &'static Content = content::builtin();
    for (i, l) in text.lines().enumerate() {
        if let Some(src) = l.trim().strip_prefix("content ") {
            let src = src.trim();
            if src != "builtin" {
                content = crate::content::load_cached(
                    std::path::Path::new(src),
                    super::content_file::parse,
                )
                .map_err(|e| PositionError {
                    line: i + 1,
                    message: e.0,
                })?;
            }
        }
    }
    let c = content;
    let mut b = Beyond::empty(c);
    let card = |s: &str| c.card_index(s);
    let header_line = position_text::header(text, "beyond")?;
    // The lines the state's cross-checks report at (0 when the line is left out).
    let (mut game_line, mut cursor_line) = (0, 0);
    for (i, raw) in text.lines().enumerate() {
        let ctx = Ctx {
            line: i + 1,
            content: c,
        };
        let l = raw.split('#').next().unwrap_or("").trim();
        if l.is_empty() {
            continue;
        }
        let parts: Vec<&str> = l.split_whitespace().collect();
        match parts[0] {
            "beyond-position" if i + 1 == header_line => {}
            "content" => {}
            "game" => {
                game_line = i + 1;
                for (k, v) in kv(&ctx, &parts[1..])? {
                    match k {
                        "scenario" => {
                            b.scenario = lookup(&ctx, "scenario", v, |s| c.scenario_index(s))?
                        }
                        "campaign" => {
                            b.campaign = if v == "-" {
                                NO_CARD
                            } else {
                                lookup(&ctx, "campaign", v, |s| c.campaign_index(s))?
                            }
                        }
                        "campaign_pos" => b.campaign_pos = num(&ctx, k, v)?,
                        "alt_unlocked" => b.alt_unlocked = flag(&ctx, k, v)?,
                        "draw_full" => b.draw_full = flag(&ctx, k, v)?,
                        "heroes" => b.n_heroes = index1(&ctx, k, v, 4)? + 1,
                        "threat" => b.threat = num(&ctx, k, v)?,
                        "round" => b.round = num(&ctx, k, v)?,
                        "phase" => {
                            b.phase = match v {
                                "hero" => Phase::Hero,
                                "enemy" => Phase::Enemy,
                                "draw" => Phase::Draw,
                                "campaign" => Phase::Campaign,
                                "over" => Phase::Over,
                                _ => return Err(ctx.err(format!("unknown phase '{v}'"))),
                            }
                        }
                        "pending" => b.pending = read_pending(&ctx, v)?,
                        "actions" => b.actions = num(&ctx, k, v)?,
                        "scenario_action_used" => b.scenario_action_used = flag(&ctx, k, v)?,
                        "rewards_left" => b.rewards_left = num(&ctx, k, v)?,
                        "result" => {
                            b.result = num(&ctx, k, v)?;
                            if b.result as usize >= 2 + super::LOSS_CAUSES.len() {
                                return Err(ctx.err(format!("result {} out of range", b.result)));
                            }
                        }
                        "decisions" => b.decisions = num(&ctx, k, v)?,
                        "seq" => b.seq = num(&ctx, k, v)?,
                        _ => return Err(ctx.err(format!("unknown key '{k}' in game"))),
                    }
                }
            }
            "tally" => {
                let t = &mut b.tally;
                for (k, v) in kv(&ctx, &parts[1..])? {
                    match k {
                        "rounds" => t.rounds = num(&ctx, k, v)?,
                        "wounds_taken" => t.wounds_taken = num(&ctx, k, v)?,
                        "defeated" => t.defeated = num(&ctx, k, v)?,
                        "threat_max" => t.threat_max = num(&ctx, k, v)?,
                        "played" => t.played = num(&ctx, k, v)?,
                        "won" => t.won = num(&ctx, k, v)?,
                        _ => return Err(ctx.err(format!("unknown key '{k}' in tally"))),
                    }
                }
            }
            "hero" => {
                let h = index1(&ctx, "hero", parts.get(1).unwrap_or(&""), 4)? as usize;
                let what = parts.get(2).copied().unwrap_or("");
                let rest = parts.get(3).copied().unwrap_or("-");
                match what {
                    "deck" => b.heroes[h].deck = read_pile::<DECK>(&ctx, "card", rest, card)?,
                    "discard" => b.heroes[h].discard = read_pile::<DECK>(&ctx, "card", rest, card)?,
                    "hand" => b.heroes[h].hand = read_pile::<HAND>(&ctx, "card", rest, card)?,
                    "persist" => {
                        let slot = index1(&ctx, "persist", rest, 3)? as usize;
                        let mut p = super::state::Persist::EMPTY;
                        for (k, v) in kv(&ctx, &parts[4..])? {
                            match k {
                                "card" => p.card = lookup(&ctx, "card", v, card)?,
                                "owner" => p.owner = index1(&ctx, k, v, 4)?,
                                "opt" => p.opt = index1(&ctx, k, v, 2)?,
                                "uses" => p.uses = num(&ctx, k, v)?,
                                "attach" => {
                                    p.attach = read_pile::<MAX_ATTACH>(&ctx, "card", v, card)?
                                }
                                _ => return Err(ctx.err(format!("unknown key '{k}' in persist"))),
                            }
                        }
                        if p.card == NO_CARD
                            || c.cards[p.card as usize].opts.len() <= p.opt as usize
                        {
                            return Err(ctx.err("persist needs a card with that option"));
                        }
                        b.heroes[h].persist[slot] = p;
                    }
                    _ => {
                        for (k, v) in kv(&ctx, &parts[2..])? {
                            let hs = &mut b.heroes[h];
                            match k {
                                "name" => hs.hero = lookup(&ctx, "hero", v, |s| c.hero_index(s))?,
                                "side" => {
                                    hs.side = num(&ctx, k, v)?;
                                    if hs.side > 1 {
                                        return Err(ctx.err("side: 0 (standard) or 1 (alternate)"));
                                    }
                                }
                                "points" => hs.points = num(&ctx, k, v)?,
                                "known" => hs.known = num(&ctx, k, v)?,
                                "items" => {
                                    let list: Vec<&str> = v.split(',').collect();
                                    if list.len() != 5 {
                                        return Err(
                                            ctx.err("items: five entries (one per body part)")
                                        );
                                    }
                                    for (j, x) in list.iter().enumerate() {
                                        hs.items[j] = if *x == "-" {
                                            NO_CARD
                                        } else {
                                            lookup(&ctx, "item", x, |s| c.item_index(s))?
                                        };
                                    }
                                }
                                _ => return Err(ctx.err(format!("unknown key '{k}' in hero"))),
                            }
                        }
                    }
                }
            }
            "enemy" => {
                let slot =
                    index1(&ctx, "enemy", parts.get(1).unwrap_or(&""), MAX_ENEMIES)? as usize;
                let mut e = super::state::EnemyState::EMPTY;
                for (k, v) in kv(&ctx, &parts[2..])? {
                    match k {
                        "kind" => e.kind = lookup(&ctx, "enemy", v, |s| c.enemy_index(s))?,
                        "area" => {
                            e.area = if v == "quest" {
                                QUEST
                            } else {
                                index1(&ctx, k, v, 4)?
                            }
                        }
                        "seq" => e.seq = num(&ctx, k, v)?,
                        "attach" => e.attach = read_pile::<MAX_ATTACH>(&ctx, "card", v, card)?,
                        _ => return Err(ctx.err(format!("unknown key '{k}' in enemy"))),
                    }
                }
                if e.kind == NO_CARD {
                    return Err(ctx.err("enemy needs kind="));
                }
                b.enemies[slot] = e;
            }
            "enemy_deck" => {
                b.enemy_deck = read_pile(&ctx, "enemy", parts.get(1).unwrap_or(&"-"), |s| {
                    c.enemy_index(s)
                })?
            }
            "terrain_deck" => {
                b.terrain_deck = read_pile(&ctx, "terrain", parts.get(1).unwrap_or(&"-"), |s| {
                    c.terrain_index(s)
                })?
            }
            "terrain" => {
                b.terrain = read_pile(&ctx, "terrain", parts.get(1).unwrap_or(&"-"), |s| {
                    c.terrain_index(s)
                })?
            }
            "wound_deck" => {
                b.wound_deck = read_pile(&ctx, "card", parts.get(1).unwrap_or(&"-"), card)?
            }
            "wound_discard" => {
                b.wound_discard = read_pile(&ctx, "card", parts.get(1).unwrap_or(&"-"), card)?
            }
            "fatigue_deck" => {
                b.fatigue_deck = read_pile(&ctx, "card", parts.get(1).unwrap_or(&"-"), card)?
            }
            "fatigue_discard" => {
                b.fatigue_discard = read_pile(&ctx, "card", parts.get(1).unwrap_or(&"-"), card)?
            }
            "response_deck" | "response_discard" => {
                let n = c.response.len();
                let p = read_pile(&ctx, "response index", parts.get(1).unwrap_or(&"-"), |s| {
                    s.parse::<usize>().ok().filter(|&i| i < n).map(|i| i as u8)
                })?;
                if parts[0] == "response_deck" {
                    b.response_deck = p;
                } else {
                    b.response_discard = p;
                }
            }
            "item_deck" => {
                b.item_deck = read_pile(&ctx, "item", parts.get(1).unwrap_or(&"-"), |s| {
                    c.item_index(s)
                })?
            }
            "attack" | "defend" => {
                let is_attack = parts[0] == "attack";
                for (k, v) in kv(&ctx, &parts[1..])? {
                    match k {
                        "hero" => {
                            let h = index1(&ctx, k, v, 4)?;
                            if is_attack {
                                b.attack.hero = h
                            } else {
                                b.defend.hero = h
                            }
                        }
                        "target" => {
                            b.attack.target = if let Some(t) = v.strip_prefix('t') {
                                super::state::TERRAIN_TARGET
                                    + index1(&ctx, k, t, super::state::MAX_TERRAIN)?
                            } else {
                                index1(&ctx, k, v, MAX_ENEMIES)?
                            }
                        }
                        "enemy" => b.defend.enemy = index1(&ctx, k, v, MAX_ENEMIES)?,
                        "total" => {
                            let t = num(&ctx, k, v)?;
                            if is_attack {
                                b.attack.total = t
                            } else {
                                b.defend.total = t
                            }
                        }
                        "symbols" => b.attack.symbols = num(&ctx, k, v)?,
                        "spent" => b.defend.spent = num(&ctx, k, v)?,
                        "cards" => {
                            let (mut cards, mut owners, mut n) = (
                                [NO_CARD; super::state::MAX_COMMIT],
                                [0u8; super::state::MAX_COMMIT],
                                0u8,
                            );
                            if v != "-" {
                                for item in v.split(',') {
                                    if n as usize >= super::state::MAX_COMMIT {
                                        return Err(ctx.err("cards: too many committed cards"));
                                    }
                                    let (name, who) = item.split_once('@').ok_or_else(|| {
                                        ctx.err(format!("'{item}' is not NAME@HERO.OPTION"))
                                    })?;
                                    let (hh, oo) = who.split_once('.').ok_or_else(|| {
                                        ctx.err(format!("'{item}' is not NAME@HERO.OPTION"))
                                    })?;
                                    cards[n as usize] = lookup(&ctx, "card", name, card)?;
                                    owners[n as usize] = index1(&ctx, "hero", hh, 4)? * 2
                                        + index1(&ctx, "option", oo, 2)?;
                                    n += 1;
                                }
                            }
                            if is_attack {
                                b.attack.cards = cards;
                                b.attack.owners = owners;
                                b.attack.n = n;
                            } else {
                                b.defend.cards = cards;
                                b.defend.owners = owners;
                                b.defend.n = n;
                            }
                        }
                        _ => return Err(ctx.err(format!("unknown key '{k}' in {}", parts[0]))),
                    }
                }
            }
            "cursor" => {
                cursor_line = i + 1;
                let k_ = &mut b.cursor;
                for (k, v) in kv(&ctx, &parts[1..])? {
                    match k {
                        "column" => k_.column = index1(&ctx, k, v, content::MAX_COLUMNS)? + 1,
                        "row" => k_.row = index1(&ctx, k, v, 64)?,
                        "enemy" => {
                            k_.enemy = if v == "-" {
                                NO_CARD
                            } else {
                                index1(&ctx, k, v, MAX_ENEMIES)?
                            }
                        }
                        "act" => k_.act = num(&ctx, k, v)?,
                        "eligible" => k_.eligible = num(&ctx, k, v)?,
                        "done" => k_.done = num(&ctx, k, v)?,
                        "rank" => {
                            let list: Vec<&str> = v.split(',').collect();
                            if list.len() != 4 {
                                return Err(ctx.err("rank: four hero numbers"));
                            }
                            for (j, x) in list.iter().enumerate() {
                                k_.rank[j] = index1(&ctx, k, x, 4)?;
                            }
                        }
                        "ranked" => k_.ranked = flag(&ctx, k, v)?,
                        "followers" => k_.followers = num(&ctx, k, v)?,
                        "order" => k_.order = num::<u8>(&ctx, k, v)?.min(3),
                        "follower" => {
                            k_.follower = if v == "-" {
                                NO_CARD
                            } else {
                                index1(&ctx, k, v, MAX_ENEMIES)?
                            }
                        }
                        "ability" => k_.ability = num::<u8>(&ctx, k, v)?.min(2),
                        "ability_value" => k_.ability_value = num(&ctx, k, v)?,
                        _ => return Err(ctx.err(format!("unknown key '{k}' in cursor"))),
                    }
                }
            }
            other => return Err(ctx.err(format!("unknown line '{other}'"))),
        }
    }
    position_text::over_with_result(game_line, b.phase == Phase::Over, b.result)?;
    check_phase(&b).map_err(|m| position_text::error(game_line, m))?;
    check(&b).map_err(|m| PositionError {
        line: 0,
        message: m,
    })?;
    check_pending(&b).map_err(|m| position_text::error(game_line, m))?;
    check_cursor(&b).map_err(|m| position_text::error(cursor_line, m))?;
    Ok(b)
}

/// The phases a decision in progress may be met in, its own first (`pending=none`: the Hero
/// Phase's ordinary choices, or a finished game). A decision of the Enemy Phase may also be
/// met in the Hero Phase: once taken, the enemy phase does not go on and play is back to the
/// heroes, which is how the rules' tests try one such decision alone. Every decision leaves a
/// phase that has one: a Hero Phase decision (an attack, a cycle) ends in the Hero Phase.
fn pending_phases(p: Pending) -> &'static [Phase] {
    match p {
        Pending::None => &[Phase::Hero, Phase::Over],
        Pending::Attack | Pending::Cycle { .. } => &[Phase::Hero],
        Pending::Defend
        | Pending::PickTarget { .. }
        | Pending::Intimidate { .. }
        | Pending::Redirect { .. }
        | Pending::PickHeal { .. } => &[Phase::Enemy, Phase::Hero],
        Pending::DiscardDown { .. } => &[Phase::Draw],
        Pending::Equip { .. } | Pending::Side { .. } => &[Phase::Campaign],
    }
}

/// The decision in progress (`game pending=`) against the phase: met in one of its
/// [`pending_phases`], and a phase that waits on a decision has one.
fn check_phase(b: &Beyond) -> Result<(), String> {
    let phase = phase_name(b.phase);
    let allowed = pending_phases(b.pending);
    if allowed.contains(&b.phase) {
        return Ok(());
    }
    Err(if b.pending == Pending::None {
        format!(
            "phase={phase} waits on a decision, and pending=none gives it none (the {phase} phase's are {})",
            match b.phase {
                Phase::Enemy => "defend, pick_target, intimidate, redirect and pick_heal",
                Phase::Draw => "discard_down",
                _ => "equip and side",
            }
        )
    } else {
        format!(
            "pending={} is a decision of the {} phase, not of phase={phase}",
            pending_text(b.pending),
            phase_name(allowed[0])
        )
    })
}

/// What the decision in progress (`game pending=`) refers to must exist (its committed cards,
/// an Intimidate with a card to discard, a Heal's candidates alive and wounded, a campaign with
/// a scenario to go on to), so that the rules never look past what the state holds.
fn check_pending(b: &Beyond) -> Result<(), String> {
    let c = b.content;
    let n = b.n_heroes;
    let pending = pending_text(b.pending);
    let hero_of = |h: u8| (h + 1).to_string();
    match b.pending {
        Pending::Attack => {
            check_commits(b, "attack", &b.attack.cards, &b.attack.owners, b.attack.n)
        }
        Pending::Defend => {
            check_commits(b, "defend", &b.defend.cards, &b.defend.owners, b.defend.n)
        }
        Pending::Intimidate { hero, left } => {
            if left == 0 {
                Err(format!(
                    "pending={pending}: the last number counts the cards still to discard, at least 1"
                ))
            } else if !b.discardable(hero as usize) {
                Err(format!(
                    "pending={pending}: hero {} has nothing to discard (no hand card but Wounds and Fatigue, no Persistent card)",
                    hero_of(hero)
                ))
            } else {
                Ok(())
            }
        }
        Pending::DiscardDown { hero } if !b.needs_discard(hero as usize) => Err(format!(
            "pending={pending}: hero {} holds no more than the hand size of {} (or only Wounds and Fatigue), so nothing to discard down",
            hero_of(hero),
            b.hand_size()
        )),
        Pending::PickTarget { tied } => {
            if tied >> n != 0 || tied == 0 {
                Err(format!(
                    "pending={pending}: the tied heroes (bit H-1 for hero H) must be some of the game's {n}"
                ))
            } else {
                Ok(())
            }
        }
        Pending::PickHeal { cands, left } => {
            let wounded = |e: usize| b.enemies[e].alive() && !b.enemies[e].attach.is_empty();
            if left == 0 {
                Err(format!(
                    "pending={pending}: the last number counts the enemies still to heal, at least 1"
                ))
            } else if cands == 0 || (0..MAX_ENEMIES).any(|e| cands & 1 << e != 0 && !wounded(e)) {
                Err(format!(
                    "pending={pending}: the candidates (bit S-1 for enemy slot S) must be enemies in play with a card attached"
                ))
            } else {
                Ok(())
            }
        }
        Pending::Redirect { hero } if !b.has_ally(hero as usize) => Err(format!(
            "pending={pending}: hero {} has no Ally to take it",
            hero_of(hero)
        )),
        Pending::Equip { .. } | Pending::Side { .. } => {
            if b.campaign == NO_CARD {
                return Err(format!(
                    "pending={pending} is a step between the scenarios of a campaign, and campaign=-"
                ));
            }
            let scenarios = c.campaigns[b.campaign as usize].scenarios.len();
            if b.campaign_pos as usize + 1 >= scenarios {
                return Err(format!(
                    "pending={pending}: campaign_pos={} is the campaign's last scenario, so no scenario follows",
                    b.campaign_pos
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The cards committed to an attack or a defense (`NAME@HERO.OPTION`): each by a hero of the
/// game, with an option its card has (a Wound or Fatigue modifier: option 1).
fn check_commits(b: &Beyond, what: &str, cards: &[u8], owners: &[u8], n: u8) -> Result<(), String> {
    for k in 0..n as usize {
        let (card, hero, opt) = (cards[k], owners[k] / 2, owners[k] % 2);
        let opts = if b.is_wf(card) {
            1
        } else {
            b.content.cards[card as usize].opts.len()
        };
        if hero >= b.n_heroes || opt as usize >= opts {
            return Err(format!(
                "{what} cards: {}@{}.{} is not a card of one of the game's {} heroes with that option",
                enc(b.cname(card)),
                hero + 1,
                opt + 1,
                b.n_heroes
            ));
        }
    }
    Ok(())
}

/// The Enemy Phase's cursor (`cursor` line), which the phase resumes from after a decision:
/// type-order followers are enemy slots, and the target priority order lists every hero once,
/// the game's heroes first.
fn check_cursor(b: &Beyond) -> Result<(), String> {
    let k = &b.cursor;
    if b.phase != Phase::Enemy {
        return Ok(());
    }
    if k.followers >> MAX_ENEMIES != 0 {
        return Err(format!(
            "followers={}: a set of enemy slots (bit S-1 for slot S, S 1..={MAX_ENEMIES})",
            k.followers
        ));
    }
    let n = b.n_heroes as usize;
    let mut seen = [false; 4];
    for &h in &k.rank {
        seen[h as usize] = true;
    }
    if seen.contains(&false) || k.rank[..n].iter().any(|&h| h as usize >= n) {
        return Err(format!(
            "rank={}: every hero 1-4 once, the game's {n} first",
            k.rank
                .iter()
                .map(|r| (r + 1).to_string())
                .collect::<Vec<_>>()
                .join(",")
        ));
    }
    Ok(())
}

/// Consistency checks a loaded position must pass, so the rules can trust it.
fn check(b: &Beyond) -> Result<(), String> {
    let c = b.content;
    if b.campaign != NO_CARD
        && c.campaigns[b.campaign as usize].scenarios.len() <= b.campaign_pos as usize
    {
        return Err("campaign_pos past the campaign's scenarios".into());
    }
    for h in 0..b.n_heroes as usize {
        let hs = &b.heroes[h];
        if hs.known as usize > hs.deck.len() {
            return Err(format!("hero {}: known {} > deck size", h + 1, hs.known));
        }
        if hs.points > c.max_points {
            return Err(format!("hero {}: points over the cap", h + 1));
        }
        for p in &hs.persist {
            if p.card != NO_CARD && p.owner >= b.n_heroes {
                return Err(format!("hero {}: persistent owner out of range", h + 1));
            }
        }
    }
    for e in &b.enemies {
        if e.alive() && e.area != QUEST && e.area >= b.n_heroes {
            return Err("an enemy in the area of a hero not in the game".into());
        }
    }
    let hand_ok = |h: u8| h < b.n_heroes;
    let ok = match b.pending {
        Pending::Cycle { hero, .. }
        | Pending::Intimidate { hero, .. }
        | Pending::DiscardDown { hero }
        | Pending::Redirect { hero }
        | Pending::Side { hero } => hand_ok(hero),
        Pending::Equip { item } => (item as usize) < c.items.len(),
        Pending::Attack => {
            hand_ok(b.attack.hero)
                && if b.attack.target >= super::state::TERRAIN_TARGET {
                    ((b.attack.target - super::state::TERRAIN_TARGET) as usize) < b.terrain.len()
                } else {
                    b.enemies[b.attack.target as usize].alive()
                }
        }
        Pending::Defend => hand_ok(b.defend.hero) && b.enemies[b.defend.enemy as usize].alive(),
        _ => true,
    };
    if !ok {
        return Err(format!(
            "pending {} does not fit the state",
            pending_text(b.pending)
        ));
    }
    if b.cursor.column > c.columns {
        return Err("cursor column past the Response numbers".into());
    }
    Ok(())
}

/// A readable description of the state (for `sololab play`).
pub fn render(b: &Beyond) -> String {
    let c = b.content;
    let mut s = format!(
        "{} — round {}, threat {}, phase {}\n",
        c.scenarios[b.scenario as usize].name,
        b.round,
        b.threat,
        phase_name(b.phase)
    );
    for h in 0..b.n_heroes as usize {
        let hs = &b.heroes[h];
        let hand: Vec<&str> = hs.hand.as_slice().iter().map(|&x| b.cname(x)).collect();
        s.push_str(&format!(
            "  {}: {} points, deck {}, discard {}, hand [{}]\n",
            b.hname(h),
            hs.points,
            hs.deck.len(),
            hs.discard.len(),
            hand.join(", ")
        ));
        for p in hs.persist.iter().filter(|p| p.card != NO_CARD) {
            s.push_str(&format!("    in play: {}", b.cname(p.card)));
            match p.uses {
                0 => {}
                1 => s.push_str(" (1 use left)"),
                n => s.push_str(&format!(" ({n} uses left)")),
            }
            if !p.attach.is_empty() {
                s.push_str(&format!(" with {}", attached_names(b, &p.attach)));
            }
            s.push('\n');
        }
    }
    for (i, e) in b.enemies.iter().enumerate() {
        if e.alive() {
            let st = b.enemy_stats(i);
            s.push_str(&format!(
                "  enemy {} {} in {}: attack {} defense {} health {}\n",
                i + 1,
                b.ename(i),
                if e.area == QUEST {
                    "quest".to_string()
                } else {
                    b.hname(e.area as usize).to_string()
                },
                st.attack,
                st.defense,
                st.health
            ));
            if !e.attach.is_empty() {
                s.pop();
                s.push_str(&format!(" (with {})\n", attached_names(b, &e.attach)));
            }
        }
    }
    for &t in b.terrain.as_slice() {
        let tc = &c.terrain[t as usize];
        s.push_str(&format!(
            "  terrain {} in quest: value {}",
            tc.name,
            b.per(tc.points)
        ));
        if tc.kind != content::TerrainKind::Obstacle {
            s.push_str(&format!(", defense {}", b.per(tc.defense)));
        }
        s.push('\n');
    }
    s.push_str(&format!(
        "  decks: enemy {}, terrain {}, wound {} (+{} discarded), fatigue {} (+{} discarded), \
         response {}\n",
        b.enemy_deck.len(),
        b.terrain_deck.len(),
        b.wound_deck.len(),
        b.wound_discard.len(),
        b.fatigue_deck.len(),
        b.fatigue_discard.len(),
        b.response_deck.len()
    ));
    s
}

/// The names of attached Wound/Fatigue cards, comma-separated.
fn attached_names<const N: usize>(b: &Beyond, attach: &Pile<N>) -> String {
    let names: Vec<&str> = attach.as_slice().iter().map(|&x| b.cname(x)).collect();
    names.join(", ")
}

/// A readable text of an action.
pub fn action_text(b: &Beyond, a: A) -> String {
    let h = |x: u8| b.hname(x as usize).to_string();
    let cn = |x: u8| b.cname(x).to_string();
    let target = |t: u8| {
        if t >= super::state::TERRAIN_TARGET {
            let i = (t - super::state::TERRAIN_TARGET) as usize;
            b.terrain
                .as_slice()
                .get(i)
                .map_or("terrain".to_string(), |&x| {
                    b.content.terrain[x as usize].name.clone()
                })
        } else {
            format!("{} (enemy {})", b.ename(t as usize), t + 1)
        }
    };
    match a {
        A::EndPhase => "end the hero phase".into(),
        A::Attack {
            hero,
            card,
            opt,
            target: t,
        } => format!(
            "{} attacks {} with {} (option {})",
            h(hero),
            target(t),
            cn(card),
            opt + 1
        ),
        A::Play {
            hero,
            card,
            opt,
            target: t,
        } => format!(
            "{} plays {} (option {}) on {}",
            h(hero),
            cn(card),
            opt + 1,
            h(t)
        ),
        A::WoundPoints { hero, card } => format!("{} plays {}", h(hero), cn(card)),
        A::Draw { hero } => format!("{} draws a card", h(hero)),
        A::Cycle { hero } => format!("{} cycles", h(hero)),
        A::DiscardForPoints { hero, card } => {
            format!("{} discards {} for points", h(hero), cn(card))
        }
        A::Engage { hero, enemy } => format!("{} engages {}", h(hero), target(enemy)),
        A::Disengage { hero, enemy } => format!("{} disengages {}", h(hero), target(enemy)),
        A::OpenTerrain {
            hero,
            terrain,
            points,
        } => format!(
            "{} spends {points} points on {}",
            h(hero),
            target(super::state::TERRAIN_TARGET + terrain)
        ),
        A::HeroAction { hero, target: t } => {
            format!("{} uses the hero action on {}", h(hero), h(t))
        }
        A::ScenarioAction { hero } => format!("{} uses the scenario action", h(hero)),
        A::AddCard { hero, card, opt } => {
            format!("{} adds {} (option {})", h(hero), cn(card), opt + 1)
        }
        A::ResolveAttack => "resolve the attack".into(),
        A::CycleCard { card } => format!("discard {} (cycle)", cn(card)),
        A::CycleDone => "stop cycling and draw".into(),
        A::Defend { hero, card, opt } => {
            format!(
                "{} commits {} (option {}) to the defense",
                h(hero),
                cn(card),
                opt + 1
            )
        }
        A::DefendPoints => "spend points for +1 defense".into(),
        A::AllyTakes { ally } => format!("the ally in slot {} takes the attack", ally + 1),
        A::TakeAttack => "take the attack".into(),
        A::Discard { card } => format!("discard {}", cn(card)),
        A::DiscardPersistent { slot } => {
            format!("discard the persistent card in slot {}", slot + 1)
        }
        A::Target { hero } => format!("{} is the first target", h(hero)),
        A::Heal { enemy } => format!("heal {}", target(enemy)),
        A::Redirect { ally } => {
            if ally == NO_CARD {
                "the hero takes it".into()
            } else {
                format!("the ally in slot {} takes it", ally + 1)
            }
        }
        A::Equip { hero } => {
            if hero == NO_CARD {
                "leave the item".into()
            } else {
                format!("{} equips the item", h(hero))
            }
        }
        A::Side { alt } => {
            if alt {
                "play the alternate board side".into()
            } else {
                "keep the standard board side".into()
            }
        }
    }
}
