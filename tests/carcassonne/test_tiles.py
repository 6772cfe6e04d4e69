"""The tile data: counts, geometry tables, edge matching."""

from engines.carcassonne import tiles as T


def test_base_set_has_72_tiles_of_24_types_with_10_pennants_and_6_monasteries():
    base = T.BASE_TYPES
    assert len(base) == 24
    assert [T.LETTERS[t] for t in base] == list("ABCDEFGHIJKLMNOPQRSTUVWX")
    assert sum(T.COUNTS[t] for t in base) == 72
    assert sum(T.COUNTS[t] for t in base if T.PENNANT[t]) == 10
    assert sum(T.COUNTS[t] for t in base if T.HAS_MONASTERY[t] >= 0) == 6
    assert T.LETTERS[T.START] == "D" and T.COUNTS[T.START] == 4


def test_expected_counts_per_type():
    counts = {T.LETTERS[t]: T.COUNTS[t] for t in T.BASE_TYPES}
    assert counts == {
        "A": 2, "B": 4, "C": 1, "D": 4, "E": 5, "F": 2, "G": 1, "H": 3, "I": 2, "J": 3, "K": 3, "L": 3,
        "M": 2, "N": 3, "O": 2, "P": 3, "Q": 1, "R": 3, "S": 2, "T": 1, "U": 8, "V": 9, "W": 4, "X": 1,
    }


def test_every_port_of_every_rotation_belongs_to_the_right_kind_of_feature():
    for t in range(len(T.LETTERS)):
        for rot in range(4):
            edges = T.EDGES[t][rot]
            ports = T.PORTS[t][rot]
            for side in range(4):
                mid = T.FKIND[t][ports[side * 3 + 1]]
                halves = {T.FKIND[t][ports[side * 3]], T.FKIND[t][ports[side * 3 + 2]]}
                if edges[side] == T.C_EDGE:
                    assert mid == T.CITY and halves == {T.CITY}
                elif edges[side] == T.R_EDGE:
                    assert mid == T.ROAD and halves == {T.FARM}
                else:
                    assert mid == T.FARM and halves == {T.FARM}


def test_rotation_turns_edges_clockwise():
    d = T.INDEX["D"]  # printed: city N, road E, field S, road W
    letters = lambda rot: "".join(T.EDGE_LETTERS[e] for e in T.EDGES[d][rot])  # noqa: E731
    assert [letters(r) for r in range(4)] == ["CRFR", "RCRF", "FRCR", "RFRC"]


def test_road_tile_splits_the_field_in_two():
    u = T.INDEX["U"]
    farms = [f for f, k in enumerate(T.FKIND[u]) if k == T.FARM]
    assert len(farms) == 2
    masks = T.MASKS[u][0]
    assert masks[farms[0]] & masks[farms[1]] == 0


def test_signature_matching():
    e = T.INDEX["E"]  # city N at rot 0
    sig_city_south_of_cell = T.C_EDGE << 4  # a cell whose south neighbour shows a city edge
    assert T.FITS[e][2][sig_city_south_of_cell]  # E turned: city south
    assert not T.FITS[e][0][sig_city_south_of_cell]
    assert all(T.FITS[e][r][0] for r in range(4))


def test_symmetric_tiles_list_only_distinct_rotations():
    assert T.DROTS[T.INDEX["B"]] == (0,)
    assert T.DROTS[T.INDEX["X"]] == (0,)
    assert T.DROTS[T.INDEX["C"]] == (0,)
    assert T.DROTS[T.INDEX["U"]] == (0, 1)
    assert T.DROTS[T.INDEX["V"]] == (0, 1, 2, 3)


def test_geometry_for_renderers_names_every_feature():
    g = T.GEOMETRY["D"]
    assert g["edges"] == "CRFR"
    ids = [f["id"] for f in g["features"]]
    assert ids == ["c0", "r0", "f0", "f1"]
    assert g["features"][2]["borders"] == ["c0"]
    assert T.GEOMETRY["medina"]["features"][0] == {"id": "ruins", "kind": "ruins"}
