"""Both islands as data, in miles (docs/games/treasure_island.md#the-islands). Every vertex lies on the half-mile grid.

The engine converts these to half-mile units in ``geometry``; views carry this data as it is so the renderer
draws from the view alone.
"""

from __future__ import annotations

from typing import Any


def _pts(text: str) -> list[list[float]]:
    out = []
    for pair in text.split():
        x, y = pair.split(",")
        out.append([float(x), float(y)])
    return out


TREASURE: dict[str, Any] = {
    "id": "treasure",
    "name": "Treasure Island",
    "coast": _pts(
        "2,12.5 2.5,15 3,17.5 4,20 6,22.5 8.5,24 10,23.5 11.5,25 14.5,25.5 17,25 18.5,23.5 19.5,21.5 21,21 22,22.5 "
        "22.5,24.5 25,25 27.5,24.5 29.5,25.5 31.5,26 32.5,25 31.5,23.5 33,21.5 33.5,18.5 33,16 31,14.5 30,13 "
        "31,11.5 33,11 34,9 33,6.5 31,4.5 28.5,3 25.5,3.5 23,2.5 20.5,3 18.5,2 17,3.5 15.5,5.5 14,5 13,3.5 "
        "10.5,2.5 8,3 6,4.5 4.5,6.5 3,9.5 3.5,11"
    ),
    "restricted": [
        {
            "id": "R1",
            "name": "Spyglass Crater",
            "poly": _pts("14,16 14.5,15 16,15 17,16 17,17.5 16,18.5 14.5,18.5 13.5,17.5"),
        },
        {"id": "R2", "name": "Foremast Ridge", "poly": _pts("28,16 29,16 29.5,18.5 29,21 28,21 27.5,18.5")},
        {"id": "R3", "name": "Silver Lake", "poly": _pts("21,11 23,10.5 24.5,11.5 24,13 22,13.5 20.5,12.5")},
        {"id": "R4", "name": "Mizzen Crag", "poly": _pts("8.5,8.5 9.5,8 10,9 9.5,10 8.5,9.5")},
    ],
    "hills": [
        {"name": "Spyglass Hill", "centre": [15.5, 17], "levels": [[7.5, 6.5], [5, 4.5], [3, 3]]},
        {"name": "Foremast Hill", "centre": [28.5, 18.5], "levels": [[4, 6.5], [3, 5], [2, 3.5]]},
        {"name": "Mizzen Hill", "centre": [9, 9], "levels": [[4.5, 4], [3, 3], [2, 2]]},
        {"name": "Lookout Knoll", "centre": [7, 19.5], "levels": [[3, 3], [2, 2], [1, 1]]},
    ],
    "areas": [
        {"id": "F1", "kind": "forest", "poly": _pts("4,12 6.5,11.5 7.5,13.5 7,16 4.5,16.5 3.5,14.5")},
        {"id": "F2", "kind": "forest", "poly": _pts("17.5,5.5 21,4.5 24,5.5 23.5,8 19.5,8.5 17.5,7.5")},
        {"id": "F3", "kind": "forest", "poly": _pts("23,21.5 26,21 27,22.5 26.5,24 24,24")},
        {"id": "M1", "kind": "marsh", "poly": _pts("24.5,8.5 27,8 28,9.5 27.5,11 25,11")},
        {"id": "M2", "kind": "marsh", "poly": _pts("11.5,5 13.5,5.5 13.5,7 11.5,7")},
    ],
    "river": _pts("20.5,28 20.5,21.5 21,18 20.5,15 21.5,12 21,9 19.5,6 19,3 19,0"),
    "districts": [
        {"id": "D1", "name": "Lookout Point", "seed": [8, 17], "label": [7.5, 17]},
        {"id": "D2", "name": "Flint's Rest", "seed": [10.5, 21.5], "label": [11.5, 21.5]},
        {"id": "D3", "name": "Spyglass Heights", "seed": [19, 18.5], "label": [18.5, 19]},
        {"id": "D4", "name": "North Inlet", "seed": [25.5, 20.5], "label": [25.5, 21.5]},
        {"id": "D5", "name": "Foremast Reach", "seed": [29, 18], "label": [30, 18]},
        {"id": "D6", "name": "Western Woods", "seed": [7.5, 12], "label": [6.5, 11.5]},
        {"id": "D7", "name": "Crater Slopes", "seed": [14, 11], "label": [15, 11.5]},
        {"id": "D8", "name": "Silver Lake", "seed": [22.5, 12], "label": [23, 13.5]},
        {"id": "D9", "name": "Skeleton Shore", "seed": [29.5, 6], "label": [29.5, 7.5]},
        {"id": "D10", "name": "Kidd's Anchorage", "seed": [11.5, 7], "label": [11, 6]},
        {"id": "D11", "name": "Hangman's Wood", "seed": [23, 5.5], "label": [22, 5.5]},
    ],
    "towers": [
        {"id": "T1", "name": "Black Tower", "pos": [19, 14]},
        {"id": "T2", "name": "West Tower", "pos": [4, 17]},
        {"id": "T3", "name": "Flint's Tower", "pos": [10, 22.5]},
        {"id": "T4", "name": "Inlet Tower", "pos": [24, 24]},
        {"id": "T5", "name": "Gull Tower", "pos": [31, 24.5]},
        {"id": "T6", "name": "Cove Tower", "pos": [32.5, 8]},
        {"id": "T7", "name": "South Tower", "pos": [24, 4]},
        {"id": "T8", "name": "Old Fort", "pos": [6, 6]},
    ],
    "landmarks": [
        {"id": "L1", "name": "Spyglass Summit", "pos": [15.5, 17]},
        {"id": "L2", "name": "Foremast Peak", "pos": [28.5, 18.5]},
        {"id": "L3", "name": "Mizzen Crag", "pos": [9, 9]},
        {"id": "L4", "name": "Silver Lake", "pos": [22.5, 12]},
        {"id": "L5", "name": "Skeleton Rock", "pos": [31.5, 6]},
        {"id": "L6", "name": "The Stockade", "pos": [12.5, 11]},
        {"id": "L7", "name": "Ben Gunn's Cave", "pos": [25.5, 16.5]},
        {"id": "L8", "name": "White Rock", "pos": [3, 13]},
        {"id": "L9", "name": "Hanging Tree", "pos": [18, 9.5]},
        {"id": "L10", "name": "Wreck of the Walrus", "pos": [10.5, 3.5]},
    ],
    "spots": {
        "anne": [4.5, 9],
        "olivier": [13.5, 24],
        "jim": [28.5, 4.5],
        "charlotte": [31.5, 17],
        "ben": [16.5, 6.5],
    },
    "forest_name": "forest",
}

REVENGE: dict[str, Any] = {
    "id": "revenge",
    "name": "Revenge Island",
    "coast": _pts(
        "2,10 1.5,14 2.5,18 4,21.5 7,24.5 11,26 15,25.5 19,26.5 23,25.5 27,26 30.5,24.5 33.5,22 34.5,19 33,17.5 "
        "29,17 25,17.5 21,16.5 17,16 15,14 16.5,12 20,11.5 24,10.5 28,11 32,10.5 34,9 33.5,6 31,3.5 27,2.5 23,3 "
        "19,2 15,2.5 11,2 7,3 4,5 2.5,7.5"
    ),
    "restricted": [
        {"id": "R1", "name": "Devil's Peak", "poly": _pts("5,13 6.5,12.5 7.5,13.5 7,15 5.5,15.5 4.5,14.5")},
        {"id": "R2", "name": "Sulphur Pits", "poly": _pts("23,20.5 25,20 26,21 25,22.5 23,22.5 22.5,21.5")},
        {"id": "R3", "name": "Drowned Quarry", "poly": _pts("21,5.5 23,5 23.5,6.5 22,7.5 20.5,7")},
    ],
    "hills": [
        {"name": "Devil's Peak", "centre": [6, 14], "levels": [[6, 6.5], [4.5, 5], [3, 3]]},
        {"name": "Gallows Ridge", "centre": [18, 21.5], "levels": [[6.5, 3.5], [4.5, 2.5], [2.5, 1.5]]},
        {"name": "Quarry Hill", "centre": [22, 6.5], "levels": [[5, 3.5], [3.5, 2.5], [2, 2]]},
        {"name": "Beacon Knoll", "centre": [30, 21], "levels": [[3.5, 2.5], [2, 1.5], [1, 1]]},
    ],
    "areas": [
        {"id": "F1", "kind": "forest", "poly": _pts("9,17 12,16.5 13,19 11.5,21 8.5,20")},
        {"id": "F2", "kind": "forest", "poly": _pts("12,5 15.5,4.5 17,7 15.5,9 12.5,8.5")},
        {"id": "F3", "kind": "forest", "poly": _pts("26,3.5 29,4 29.5,6.5 27,7.5 25.5,6")},
        {"id": "M1", "kind": "marsh", "poly": _pts("3,7.5 5,6.5 6,8 4.5,9.5 3,9")},
        {"id": "M2", "kind": "marsh", "poly": _pts("27,18 30,18 29.5,19.5 27,19.5")},
        {"id": "N1", "kind": "town", "poly": _pts("13,22.5 15,22.5 15,24.5 13,24.5")},
        {"id": "N2", "kind": "town", "poly": _pts("30,7 32,7 32,9 30,9")},
    ],
    "river": _pts("16,28 16,25.5 17,21 16.5,16 16,12 16.5,7 15.5,2.5 15.5,0"),
    "districts": [
        {"id": "D1", "name": "Gallows Cape", "seed": [6, 18.5], "label": [6.5, 18.5]},
        {"id": "D2", "name": "Smugglers' Den", "seed": [12.5, 22.5], "label": [12, 21.5]},
        {"id": "D3", "name": "Gallows Ridge", "seed": [16.5, 23], "label": [17.5, 21.5]},
        {"id": "D4", "name": "Sulphur Fields", "seed": [23.5, 22], "label": [22.5, 21]},
        {"id": "D5", "name": "Beacon Point", "seed": [29.5, 21], "label": [30, 20.5]},
        {"id": "D6", "name": "Devil's Steps", "seed": [5.5, 11.5], "label": [5, 9.5]},
        {"id": "D7", "name": "Old Gaol", "seed": [10, 12], "label": [11.5, 13]},
        {"id": "D8", "name": "Tangle Wood", "seed": [13, 7.5], "label": [11.5, 6.5]},
        {"id": "D9", "name": "Hollow Creek", "seed": [15.5, 6.5], "label": [17, 6]},
        {"id": "D10", "name": "Quarry Shore", "seed": [23.5, 8], "label": [23, 7.5]},
        {"id": "D11", "name": "Port Revenge", "seed": [29.5, 6.5], "label": [29.5, 7]},
    ],
    "towers": [
        {"id": "T1", "name": "Gaol of Revenge", "pos": [12, 14]},
        {"id": "T2", "name": "Cape Tower", "pos": [3, 17]},
        {"id": "T3", "name": "Smugglers' Tower", "pos": [9, 24]},
        {"id": "T4", "name": "Ridge Tower", "pos": [19, 24.5]},
        {"id": "T5", "name": "Sulphur Tower", "pos": [27, 23.5]},
        {"id": "T6", "name": "Beacon Tower", "pos": [33, 19.5]},
        {"id": "T7", "name": "Harbour Tower", "pos": [33, 8]},
        {"id": "T8", "name": "Gibbet Tower", "pos": [25, 4]},
        {"id": "T9", "name": "Quarry Tower", "pos": [17, 3.5]},
    ],
    "landmarks": [
        {"id": "L1", "name": "Devil's Peak", "pos": [6, 14]},
        {"id": "L2", "name": "Sulphur Pits", "pos": [24, 21.5]},
        {"id": "L3", "name": "Drowned Quarry", "pos": [22, 6.5]},
        {"id": "L4", "name": "Beacon", "pos": [30, 21]},
        {"id": "L5", "name": "Port Revenge", "pos": [31, 8]},
        {"id": "L6", "name": "Smugglers' Den", "pos": [14, 23.5]},
        {"id": "L7", "name": "Gibbet", "pos": [27, 9.5]},
        {"id": "L8", "name": "Bone Pile", "pos": [10, 10]},
        {"id": "L9", "name": "Hermit's Hut", "pos": [15, 19]},
        {"id": "L10", "name": "Old Cannon", "pos": [3.5, 11]},
    ],
    "spots": {
        "anne": [4, 6.5],
        "olivier": [7, 23],
        "jim": [31, 5.5],
        "charlotte": [31, 19],
        "ben": [17.5, 9.5],
    },
    "forest_name": "jungle",
}

MAPS: dict[str, dict[str, Any]] = {"treasure": TREASURE, "revenge": REVENGE}
