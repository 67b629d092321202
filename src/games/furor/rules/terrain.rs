//! The Terrain Effects Chart (§7, with the stream row of R8 and the
//! terrain model of O8): what a hex's base terrain and the feature on a
//! hexside cost to move and do to combat. Costs are in [`HalfMp`].
//!
//! ```
//! use umpire::games::furor::rules::terrain::{Terrain, ROAD_COST};
//! use umpire::games::furor::rules::HalfMp;
//! assert_eq!(Terrain::Woods.move_cost(), Some(HalfMp(4)));
//! assert_eq!(ROAD_COST, HalfMp(1));
//! assert_eq!(Terrain::Hill.column_shift(), 1);
//! ```

use super::HalfMp;
use serde::{Deserialize, Serialize};

/// A hex's base terrain (O8). A road is carried on top of it
/// ([`crate::games::furor::map::Map::has_road`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    /// TEC 1.
    #[default]
    Clear,
    /// TEC 3.
    Village,
    /// TEC 4.
    Woods,
    /// TEC 5.
    Hill,
    /// Woods on a hill, where a map has it (O8): both column shifts.
    WoodsHill,
    /// A bridge drawn as a whole hex (O8): TEC 7.
    Bridge,
    /// A ford drawn as a whole hex: TEC 8.
    Ford,
    /// A river drawn as a whole hex: TEC 6, impassable.
    River,
}

impl Terrain {
    /// Names in map and case files (`road` is read as clear with a road).
    pub fn parse(name: &str) -> Option<(Terrain, bool)> {
        Some(match name {
            "clear" => (Terrain::Clear, false),
            "road" => (Terrain::Clear, true),
            "village" => (Terrain::Village, false),
            "woods" => (Terrain::Woods, false),
            "hill" => (Terrain::Hill, false),
            "woods-hill" => (Terrain::WoodsHill, false),
            "bridge" => (Terrain::Bridge, false),
            "ford" => (Terrain::Ford, false),
            "river" => (Terrain::River, false),
            _ => return None,
        })
    }

    pub const NAMES: [&'static str; 9] = [
        "clear",
        "road",
        "village",
        "woods",
        "hill",
        "woods-hill",
        "bridge",
        "ford",
        "river",
    ];

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Clear => "clear",
            Terrain::Village => "village",
            Terrain::Woods => "woods",
            Terrain::Hill => "hill",
            Terrain::WoodsHill => "woods-hill",
            Terrain::Bridge => "bridge",
            Terrain::Ford => "ford",
            Terrain::River => "river",
        }
    }

    /// What entering the hex costs off a road; `None`: impassable.
    /// Woods on a hill costs what either does (the chart is per hex, not
    /// cumulative: ruling O8).
    pub fn move_cost(self) -> Option<HalfMp> {
        match self {
            Terrain::Clear | Terrain::Village | Terrain::Bridge => Some(HalfMp(2)),
            Terrain::Woods | Terrain::Hill | Terrain::WoodsHill | Terrain::Ford => Some(HalfMp(4)),
            Terrain::River => None,
        }
    }

    /// Columns the defender's terrain moves the odds to the left (§9.5).
    pub fn column_shift(self) -> u8 {
        match self {
            Terrain::Woods | Terrain::Hill => 1,
            Terrain::WoodsHill => 2,
            _ => 0,
        }
    }

    /// The defender's die bonus for its hex (§9.5, TEC 3 and 7). A bridge
    /// hex's bonus is lost when a unit fires ([`Terrain::bonus_lost_to_fire`]).
    pub fn die_bonus(self) -> u8 {
        match self {
            Terrain::Village | Terrain::Bridge => 1,
            _ => 0,
        }
    }

    /// TEC 7: "unless at least 1 Shot".
    pub fn bonus_lost_to_fire(self) -> bool {
        self == Terrain::Bridge
    }

    /// A charge may end against, and pass through, clear and bridge hexes
    /// (and any hex with a road: §9.2, O13).
    pub fn open_for_charge(self) -> bool {
        matches!(self, Terrain::Clear | Terrain::Bridge)
    }
}

/// What a move along a road costs, hex to hex (TEC 2).
pub const ROAD_COST: HalfMp = HalfMp(1);
/// What crossing a stream hexside adds (R8), unless by a bridge or a road.
pub const STREAM_CROSSING_EXTRA: HalfMp = HalfMp(2);
/// What crossing a ford costs at least (TEC 8).
pub const FORD_COST: HalfMp = HalfMp(4);

/// A feature on the side between two hexes (O8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HexsideFeature {
    /// TEC 6: impassable; no ZoC across (§8); no retreat, advance or
    /// hand-to-hand combat across (O9).
    River,
    /// R8: +1 MP to cross, +1 on the die for a defender behind it.
    Stream,
    /// A river (or stream) crossed by a ford: TEC 8, 2 MP.
    Ford,
    /// A river or stream crossed by a bridge: TEC 7, no extra cost, +1 on
    /// the die for a defender behind it.
    Bridge,
}

impl HexsideFeature {
    /// The file's `feature` (and the map file's optional `crossing`).
    pub fn parse(feature: &str, crossing: Option<&str>) -> Option<HexsideFeature> {
        let water = match feature {
            "river" => HexsideFeature::River,
            "stream" => HexsideFeature::Stream,
            "ford" => HexsideFeature::Ford,
            "bridge" => HexsideFeature::Bridge,
            _ => return None,
        };
        match crossing {
            None | Some("none") => Some(water),
            Some("ford") if matches!(water, HexsideFeature::River | HexsideFeature::Stream) => {
                Some(HexsideFeature::Ford)
            }
            Some("bridge") if matches!(water, HexsideFeature::River | HexsideFeature::Stream) => {
                Some(HexsideFeature::Bridge)
            }
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            HexsideFeature::River => "river",
            HexsideFeature::Stream => "stream",
            HexsideFeature::Ford => "ford",
            HexsideFeature::Bridge => "bridge",
        }
    }

    /// Whether movement, retreat and advance may cross it.
    pub fn passable(self) -> bool {
        self != HexsideFeature::River
    }

    /// The defender's +1 for water between it and its attackers (R8, §9.6).
    pub fn die_bonus(self) -> u8 {
        match self {
            HexsideFeature::Stream | HexsideFeature::Bridge => 1,
            _ => 0,
        }
    }
}
