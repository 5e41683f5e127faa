"""The grouped options of :func:`rankwise.compare`: one class per feature that takes several
settings (``posthoc=PosthocOptions("all", control="C4.5")``,
``bayesian=BayesianOptions("signed-rank", rope=0.01)``), generated from the option table, and
the translation between them and the flat settings every step reads (:class:`Options`).

Each group keyword also takes what it took before it was a group: a plain value sets the
group's lead field (``posthoc="all"``, ``bayesian="signed-rank"``, ``rank_sets=True``,
``per_dataset="corrected"``). The flat keywords of 0.8 (``zero_method=``, ``rope=``,
``control=``, …) still work, with a FutureWarning that names the group, until 0.10.
"""

from __future__ import annotations

import warnings
from dataclasses import field, make_dataclass

from ..errors import RankwiseError
from ..option_table import BY_NAME, GROUP_BY_NAME, GROUPS, NAMES, RENAMED

#: The release that removes the flat keywords of the grouped options.
FLAT_REMOVED_IN = "0.10"


def _docstring(group) -> str:
    lines = [group.help, "", "Parameters", "----------"]
    for option in group.options:
        lines.append(f"{option.in_group} : default {option.default!r}")
        lines.append(f"    {option.help} (command line: ``{option.long_flag}``)")
    example = group.options[0]
    lines += ["", "Examples", "--------", ">>> import rankwise",
              f">>> rankwise.{group.cls}()  # doctest: +ELLIPSIS",
              f"{group.cls}({example.in_group}={example.default!r}, ...)"]
    return "\n".join(lines)


def _make(group):
    cls = make_dataclass(
        group.cls, [(o.in_group, object, field(default=o.default)) for o in group.options],
        frozen=True, namespace={"__module__": "rankwise", "__doc__": _docstring(group)})
    cls.__qualname__ = group.cls
    return cls


#: The group classes, by compare's keyword.
CLASSES = {g.name: _make(g) for g in GROUPS}
PosthocOptions = CLASSES["posthoc"]
WilcoxonOptions = CLASSES["wilcoxon"]
BayesianOptions = CLASSES["bayesian"]
RankSetOptions = CLASSES["rank_sets"]
PerDatasetOptions = CLASSES["per_dataset"]
Presentation = CLASSES["presentation"]


def flat_settings(given: dict, extra: dict | None = None) -> dict:
    """compare's keywords (``given``: its own options and a value per group) as the flat
    settings :class:`Options` holds; ``extra``: keywords compare did not declare, of which
    the flat names of grouped options are taken (with a FutureWarning) and removed."""
    flat = {}
    for keyword, value in given.items():
        group = GROUP_BY_NAME.get(keyword)
        if group is None:
            flat[keyword] = value
            continue
        flat.update(_group_values(group, value))
    said = {}   # the name each flat keyword was given under (0.8's, where it was renamed)
    for old in [n for n in (extra or {}) if n in RENAMED]:
        extra[RENAMED[old]] = extra.pop(old)
        said[RENAMED[old]] = old
    for name in [n for n in (extra or {}) if n in BY_NAME and BY_NAME[n].group]:
        option = BY_NAME[name]
        value = extra.pop(name)
        group = GROUP_BY_NAME[option.group]
        warnings.warn(f"compare({said.get(name, name)}=...) is"
                      f" {group.name}={group.cls}({option.in_group}=...)"
                      f" since rankwise 0.9; the flat keyword goes in {FLAT_REMOVED_IN}",
                      FutureWarning, stacklevel=3)
        if given.get(group.name) is not None and not isinstance(given[group.name], (str, bool)) \
                and flat[name] != option.default:
            raise RankwiseError(f"{name} is given twice: as {name}= and in {group.name}=")
        flat[name] = value
    return flat


def _group_values(group, value) -> dict:
    """The flat settings of one group keyword's value."""
    options = group.options
    out = {o.name: o.default for o in options}
    cls = CLASSES[group.name]
    if value is None:
        return out
    if isinstance(value, cls):
        return {o.name: getattr(value, o.in_group) for o in options}
    if isinstance(value, tuple(CLASSES.values())):
        raise RankwiseError(f"{group.name}= takes a {group.cls}; got a {type(value).__name__}")
    if group.lead is None:
        raise RankwiseError(f"{group.name}= takes a {group.cls}(...); got {value!r}")
    lead = next(o for o in options if o.in_group == group.lead)
    out[lead.name] = value
    return out


def grouped(flat: dict) -> dict:
    """Flat settings (``Comparison.options``) as compare's keywords: a group's options as its
    class, or as the plain lead value where the others are at their defaults."""
    out = {}
    for name in NAMES:
        if name not in flat:
            continue
        option = BY_NAME[name]
        if option.group is None:
            out[name] = flat[name]
            continue
        group = GROUP_BY_NAME[option.group]
        values = {o.in_group: flat.get(o.name, o.default) for o in group.options}
        out[group.name] = CLASSES[group.name](**values)
    return out


__all__ = ["PosthocOptions", "WilcoxonOptions", "BayesianOptions", "RankSetOptions",
           "PerDatasetOptions", "Presentation", "flat_settings", "grouped"]
