"""The KEEL .dat parser: every feature of the grammar, and bad files with clear errors."""

import numpy as np
import pytest

from rankwise import RankwiseError
from rankwise.experiment.keel import parse_keel

GOOD = """% a comment line
@Relation   'tiny set'
@ATTRIBUTE age INTEGER [18, 90]
@attribute dose real [0.0,10.0]
@attribute "blood type" {A, B, 'AB'}
@attribute class {pos, neg}
@Inputs age, dose, "blood type"
@OUTPUTS class
@DATA
30, 1.5, A, pos
45, ?, AB, neg
<null>, 2.25, <null>, neg
"""


def test_parses_every_feature():
    d = parse_keel(GOOD, "tiny.dat")
    assert d.relation == "tiny set"
    assert [a.kind for a in d.attributes] == ["integer", "real", "nominal", "nominal"]
    assert d.attributes[0].bounds == (18.0, 90.0) and d.attributes[1].bounds == (0.0, 10.0)
    assert d.attributes[2].name == "blood type" and d.attributes[2].values == ["A", "B", "AB"]
    assert d.inputs == ["age", "dose", "blood type"] and d.output == "class"
    assert d.nominal == ["blood type"]
    assert d.y.tolist() == ["pos", "neg", "neg"]
    assert np.isnan(d.X["dose"][1]) and np.isnan(d.X["age"][2])  # ? and <null>
    assert d.X["blood type"].tolist() == ["A", "AB", None]


def test_defaults_without_inputs_and_outputs():
    text = "@relation r\n@attribute a real\n@attribute b real\n@attribute c {x, y}\n@data\n1,2,x\n"
    d = parse_keel(text)
    assert d.inputs == ["a", "b"] and d.output == "c"


@pytest.mark.parametrize("text, message", [
    ("", "no @attribute declarations"),
    ("@relation r\n@attribute a real\n@attribute c {x,y}\n", "no @data section"),
    ("@relation r\n@attribute a real\n@attribute c {x,y}\n@data\n", "the @data section is empty"),
    ("@relation r\n@attribute a text\n@attribute c {x,y}\n@data\n1,x\n",
     "line 2: unknown type 'text' for attribute 'a'"),
    ("@relation r\n@attribute a real [1]\n@attribute c {x,y}\n@data\n1,x\n",
     "line 2: the range of 'a' must be \\[min, max\\]"),
    ("@relation r\n@attribute a real\n@attribute c {x,y\n@data\n1,x\n", "must end with '}'"),
    ("@relation r\n@attribute a real\n@attribute c {x,y}\n@data\n1,z\n",
     "line 5: 'z' is not one of the declared values of 'c'"),
    ("@relation r\n@attribute a real\n@attribute c {x,y}\n@data\nabc,x\n",
     "line 5: 'abc' is not a number"),
    ("@relation r\n@attribute a integer\n@attribute c {x,y}\n@data\n1.5,x\n",
     "'1.5' is not an integer"),
    ("@relation r\n@attribute a real\n@attribute c {x,y}\n@data\n1,x,3\n",
     "line 5: 3 values but 2 attributes"),
    ("@relation r\n@attribute a real\n@attribute c {x,y}\n@inputs b\n@data\n1,x\n",
     "@inputs/@outputs names 'b'"),
    ("@relation r\n@attribute a real\n@attribute c {x,y}\n@data\n1,?\n",
     "line 5: the class \\(c\\) is missing"),
    ("@relation r\nnonsense here\n", "line 2: expected @relation, @attribute"),
    ("@relation r\n@attribute a real\n@attribute c {x,y}\n@outputs a, c\n@data\n1,x\n",
     "exactly one output"),
])
def test_bad_files(text, message):
    with pytest.raises(RankwiseError, match=message) as err:
        parse_keel(text, "bad.dat")
    assert "\n" not in str(err.value)
