"""One option of an analysis and how the command line takes it (:class:`Option`), and the
ways a value is written there (:data:`KINDS`); the options themselves are declared in
:mod:`rankwise.option_table`."""

from __future__ import annotations

from dataclasses import dataclass, field

#: The panel of --help an option is in unless it says another.
TESTS = "Tests (guide: choosing-a-test, conventions)"

KINDS = ("value", "list", "pair", "switch", "toggle", "spelled", "argument")
#: The default of a value the command line requires (an argument, ``export -o FILE``).
REQUIRED = ...


@dataclass(frozen=True)
class Option:
    """One option of :func:`rankwise.compare`, and how the command line takes it."""

    name: str
    default: object
    flag: str | None          # None: Python only
    kind: str = "value"
    help: str = ""
    panel: str = TESTS
    choices: tuple | None = None
    metavar: str | None = None
    settings_key: str | None = None   # the key of the JSON settings that echoes the value
    words: dict = field(default_factory=dict)   # "spelled": Python value -> the flag's word
    cli_default: object = None   # the command line's default where it is spelled otherwise
    #: The command-line parameter's name where it differs from ``name``.
    param: str | None = None
    #: The type of the command line's value where the default does not say it (None).
    type: type = str
    #: The value the flag means when given alone (``--multiverse`` is ``--multiverse
    #: default``); None: the flag always takes a value.
    alone: str | None = None
    #: The group of :func:`rankwise.compare` that takes it (``zero_method`` is
    #: ``wilcoxon=WilcoxonOptions(zero_method=...)``), and its field's name there; None: a
    #: keyword of compare's own.
    group: str | None = None
    field: str | None = None
    #: A one-letter form of the flag on the command line (``-j`` for ``--jobs``).
    short: str | None = None
    #: The command line checks the value before any work, with one wording (:func:`refusal`):
    #: against ``choices``, or ``interval`` (open: ``(0, 1)`` is strictly between 0 and 1);
    #: otherwise the library checks it.
    checked: bool = False
    interval: tuple | None = None
    #: A check of :mod:`rankwise._validate` the command line makes before any work, with the
    #: flag as the value's name: the function's name and its further arguments (``("finite",
    #: 0)``: a finite number ≥ 0); the Python functions make the same check with the keyword.
    check: tuple | None = None
    #: Whether ``choices`` are listed beside the flag in --help (False: said in the help).
    listed: bool = True
    #: Values the shell completes for an option that also takes others (``impute:LEARNER``).
    complete: tuple | None = None
    #: --help shows the default (None: typer's rule); hidden: not in --help at all.
    show_default: bool | None = None
    hidden: bool = False

    @property
    def in_group(self) -> str:
        """The field's name in its group (its own name where it is not renamed)."""
        return self.field or self.name

    @property
    def command_default(self):
        """The default as the command line spells it."""
        if self.cli_default is not None:
            return self.cli_default
        if self.kind == "spelled" and self.default in self.words:
            return self.words[self.default]
        return self.default

    @property
    def cli_param(self) -> str:
        return self.param or self.name

    @property
    def long_flag(self) -> str:
        """The flag as written (the first of a ``--a/--b`` pair)."""
        return self.flag.split("/")[0]

    def words_for(self, value) -> list:
        """``value`` as the command line writes it (nothing for the default)."""
        if self.flag is None:
            raise ValueError(f"{self.name} has no command-line flag")
        if same_value(value, self.default):
            return []
        flag = self.long_flag
        if self.kind == "switch":
            return [flag] if value else []
        if self.kind == "toggle":
            return [flag] if value else [self.flag.split("/")[1]]
        if self.kind == "pair":
            return [flag, *map(str, value)]
        if self.kind == "list":
            return [flag, value if isinstance(value, str) else ",".join(map(str, value))]
        if self.kind == "spelled":
            for python, word in self.words.items():
                if same_value(value, python):
                    return [flag, word] if word is not None else []
        return [flag, str(value)]

    def from_cli(self, value):
        """The command line's value as :func:`rankwise.compare` takes it."""
        if self.kind == "spelled":
            for python, word in self.words.items():
                if value == word:
                    return python
        if self.kind == "pair" and value:
            return tuple(value)
        return value


def same_value(a, b) -> bool:
    # True == 1 in Python; an option's True and its 1 are different values here
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) \
        else a == b
