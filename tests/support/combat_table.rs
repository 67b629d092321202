//! A battle of many melees for the combat property tests and benchmark:
//! `blocks` melees of four units (two a side, each unit in melee with both
//! enemies), side by side along the table, plus archers shooting at a
//! target unit per block.

/// Troop types the blocks draw from.
pub const KINDS: [&str; 6] = ["LI", "MI", "HI", "MC", "HC", "HIP"];

/// One unit of a block: type index into [`KINDS`] and figures (8 files wide).
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub kind: usize,
    pub figures: u32,
}

/// The set-up text of `blocks` melees (4 specs each, cycled) and one
/// archer/target pair per block; `rename` gives every unit its id.
pub fn setup_toml(specs: &[Spec], blocks: usize, rename: &dyn Fn(&str) -> String) -> String {
    let mut s = String::from("[table]\nwidth = 400.0\ndepth = 60.0\n\n");
    for b in 0..blocks {
        let x0 = 6.0 + b as f64 * 38.0;
        let sides = [
            ("aquilonia", 0.0, 20.0, ["a1", "a2"], ["d1", "d2"]),
            ("nemedia", 180.0, 20.0, ["d1", "d2"], ["a1", "a2"]),
        ];
        for (si, (side, facing, y, mine, theirs)) in sides.iter().enumerate() {
            for k in 0..2 {
                let sp = specs[(b * 4 + si * 2 + k) % specs.len()];
                let kind = KINDS[sp.kind];
                let x = x0 + k as f64 * 9.0;
                let melee: Vec<String> =
                    theirs.iter().map(|t| rename(&format!("{b}{t}"))).collect();
                let pike = if kind == "HIP" {
                    "weapons = [\"pike\"]\n"
                } else {
                    ""
                };
                s += &format!(
                    "[[unit]]\nid = \"{}\"\nside = \"{side}\"\nname = \"U{b}{}\"\ntype = \"{kind}\"\nclass = \"B\"\nfigures = {}\n{pike}formation = \"line\"\nfiles = 8\nfront = [{x}, {y}]\nfacing = {facing}\nstatus = \"in-melee:{}\"\n\n",
                    rename(&format!("{b}{}", mine[k])), mine[k], sp.figures.clamp(8, 24), melee.join(",")
                );
            }
        }
        s += &format!(
            "[[unit]]\nid = \"{}\"\nside = \"aquilonia\"\nname = \"Bows{b}\"\ntype = \"LI\"\nclass = \"B\"\nfigures = 12\nweapons = [\"bow\"]\nformation = \"line\"\nranks = 2\nfront = [{}, 40.0]\nfacing = 0\n\n[[unit]]\nid = \"{}\"\nside = \"nemedia\"\nname = \"Target{b}\"\ntype = \"MI\"\nclass = \"B\"\nfigures = 24\nformation = \"line\"\nranks = 3\nfront = [{}, 46.0]\nfacing = 180\n\n",
            rename(&format!("{b}bow")),
            x0 + 4.0,
            rename(&format!("{b}tgt")),
            x0 + 4.0
        );
    }
    s
}
