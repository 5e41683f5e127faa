"""What makes the HTML page interactive, beside its static content (:mod:`.html` lays that out
first, so that the page reads in full with JavaScript off):

- every table sorts by a click on its heading (again to reverse), by each cell's ``data-v``:
  the unrounded number of the JSON where the cell has one, else its text;
- a group of subset sections (the boards of ``--by``, one data set each) gets a switch that
  shows one section at a time; every section's statistics were computed by rankwise before the
  page was written, the page only hides and shows them;
- every sentence has an anchor, and a number in a table that a sentence prints links to it;
- the address keeps the state: ``#subset=binary``, ``#sort=full_ranking:2:desc``,
  ``#filter=abc``; a link into a hidden section opens it.

One inline script and no request to any server: the page works offline.
"""

from __future__ import annotations

import html
import re

import numpy as np

from .._text import visible

#: Where a paragraph is cut into sentences: after . ! or ? and a space, before a capital, a
#: digit, ``#`` or an opening bracket or quote ("e.g. the" stays one sentence).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9#(\"'“])")
#: A number as the reports print it: 1,234.5 / -0.0293 / 1e-05 keep their digits.
_NUMBER = re.compile(r"(?<![\w.])[-−]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?(?![\w])")
#: A number and its interval, or an interval alone (sorted by the number, or the low end).
_ESTIMATE = re.compile(r"(?:(" + _NUMBER.pattern + r")\s*)?\[(" + _NUMBER.pattern
                       + r"),\s*" + _NUMBER.pattern + r"\]")
#: The marks a cell prints around its number (a bound, a star, a percentage).
_MARKS = " ≥≤<>*+%"


def _float(token: str) -> float:
    return float(token.replace(",", "").replace("−", "-"))


def number_in(text: str) -> float | None:
    """The number a cell's text prints (its marks and thousands separators aside), or None.

    Examples
    --------
    >>> from rankwise.report.page import number_in
    >>> number_in("≥ 1,440.8"), number_in("yes"), number_in("2.5e-05*"), number_in("-0.03")
    (1440.8, None, 2.5e-05, -0.03)
    >>> number_in("-0.0070 [-0.0535, 0.0155]"), number_in("[1342.1, 1563.0]")
    (-0.007, 1342.1)
    """
    core = str(text).strip().strip(_MARKS)
    found = _NUMBER.fullmatch(core)
    if found is None:   # an estimate and its interval, "x [lo, hi]", or an interval "[lo, hi]"
        found = _ESTIMATE.fullmatch(core)
        return None if found is None else _float(found.group(1) or found.group(2))
    return _float(core)


def _precision(token: str) -> tuple:
    """``(half_unit, significant)``: half the unit of the last digit a token prints (what its
    rounding may hide) and how many significant digits it has."""
    mantissa, _, exponent = token.replace(",", "").lstrip("-−").partition("e")
    decimals = len(mantissa.partition(".")[2])
    digits = mantissa.replace(".", "").lstrip("0")
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals), len(digits)


def _linkable(token: str) -> bool:
    """A number worth a link: one with decimals or of three digits or more (a position such as
    ``3`` or a count such as ``12`` is printed everywhere and would link to noise)."""
    return any(c in token for c in ".e") or len(token.replace(",", "").lstrip("-−")) >= 3


class Sentences:
    """Every sentence of a document, numbered in reading order, and the numbers each prints:
    the targets of the tables' links. A cell links to the first sentence that prints its text,
    or, where the cell knows its unrounded value, prints that value at the sentence's own
    precision (a p-value of 0.000458 in a sentence is the 0.0005 of a table)."""

    def __init__(self):
        self.count = 0
        self.first: dict = {}
        self._found: list = []     # (value, half unit, sentence) of every sentence's numbers
        self._values = self._halves = None   # the same as arrays, made at the first look-up

    def spans(self, text: str) -> str:
        """``text`` escaped, each sentence in a ``<span class="s" id="s-N">``."""
        out = []
        for sentence in _SENTENCE_END.split(visible(text)):
            self.count += 1
            sid = f"s-{self.count}"
            for token in _NUMBER.findall(sentence):
                if _linkable(token):
                    self.first.setdefault(token, sid)
                    half, significant = _precision(token)
                    if significant >= 2:    # "0.5" is too coarse to say which value it is
                        self._found.append((_float(token), half, sid))
            out.append(f'<span class="s" id="{sid}">{html.escape(sentence, quote=True)}</span>')
        return " ".join(out)

    def target(self, text: str, value: float | None = None) -> str | None:
        """The anchor of the sentence that prints the number of a cell's text, if one does."""
        found = _NUMBER.search(str(text))
        if found is None:
            return None
        token = found.group(0)
        if token in self.first or value is None or not self._found or not _linkable(token):
            return self.first.get(token)
        if self._values is None:
            self._values = np.array([f[0] for f in self._found])
            self._halves = np.array([f[1] for f in self._found]) * (1 + 1e-9)
        hits = np.flatnonzero(np.abs(self._values - value) <= self._halves)
        return self._found[hits[0]][2] if hits.size else None


def slug(text: str) -> str:
    """An id made of a subset's name (letters, digits, ``-``; case kept)."""
    return re.sub(r"[^A-Za-z0-9]+", "-", str(text)).strip("-") or "x"


class Sections:
    """Opens and closes the subset sections of :func:`rankwise.report.html.document_body` as
    its headings arrive: a heading with a ``subset`` opens one (a group of them around the
    first), a heading without one at the same level or higher closes the group."""

    def __init__(self):
        self.level = None       # the level of the open group's subset headings
        self.groups = 0
        self.seen: set = set()

    def at(self, heading) -> str:
        """The tags to write before ``heading``."""
        out = ""
        if heading.subset is None:
            if self.level is not None and heading.level <= self.level:
                out, self.level = "</section></div>", None
            return out
        if self.level is None:
            self.groups += 1
            self.level = heading.level
            out = f'<div class="subsets" id="subsets-{self.groups}">'
        else:
            out = "</section>"
        sid = slug(heading.subset)
        while sid in self.seen:
            sid += "-"
        self.seen.add(sid)
        # the switch names a section by its heading, the address by its subset
        return (out + f'<section class="subset" id="subset-{sid}" data-subset="{sid}"'
                f' data-label="{html.escape(visible(heading.text), quote=True)}">')

    def close(self) -> str:
        return "</section></div>" if self.level is not None else ""


class NoSections:
    """The static page's: no subset sections (every subset one after another)."""

    def at(self, heading) -> str:
        return ""

    def close(self) -> str:
        return ""


CSS = """.W span.s:target,.W li:target{background:#fff3b0}.W td a{color:inherit;
text-decoration:none;border-bottom:1px dotted #888}.W th.sort{cursor:pointer}
.W th.sort[aria-sort=ascending]::after{content:" ▲"}.W th.sort[aria-sort=descending]::after{
content:" ▼"}.W .switch{background:#f3f3f3;padding:0.4em 0.6em}
.W .switch select{font-size:1em;margin-left:0.4em;max-width:100%}"""

#: The page's one script: sorting, the subset switch, the filter and the address's state.
JS = r"""(function(){
function cells(r){return r.cells;}
function key(td){if(!td)return '';var v=td.getAttribute('data-v');
return v===null?td.textContent.trim():v;}
function cmp(a,b){var x=parseFloat(a),y=parseFloat(b);
if(a===''&&b!=='')return 1;if(b===''&&a!=='')return -1;
if(!isNaN(x)&&!isNaN(y)&&String(x)!=='NaN')return x-y;return String(a).localeCompare(String(b));}
function sort(t,c,desc){var b=t.tBodies[0],rs=Array.prototype.slice.call(b.rows);
rs.sort(function(p,q){var r=cmp(key(cells(p)[c]),key(cells(q)[c]));return desc?-r:r;});
rs.forEach(function(r){b.appendChild(r);});
Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){
th.setAttribute('aria-sort',i===c?(desc?'descending':'ascending'):'none');});
t.setAttribute('data-sorted',c+(desc?':desc':':asc'));}
var tables=document.querySelectorAll('.rankwise-report table');
Array.prototype.forEach.call(tables,function(t){if(!t.tHead||!t.tBodies.length)return;
Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){th.className+=' sort';
th.tabIndex=0;th.title='sort by this column (again to reverse)';
function go(){sort(t,i,t.getAttribute('data-sorted')===i+':asc');}
th.addEventListener('click',go);th.addEventListener('keydown',function(e){
if(e.key==='Enter'||e.key===' '){e.preventDefault();go();}});});});
var groups=document.querySelectorAll('.rankwise-report .subsets'),shows=[];
Array.prototype.forEach.call(groups,function(g,gi){var secs=Array.prototype.filter.call(
g.children,function(e){return e.classList.contains('subset');});if(secs.length<2)return;
var sel=document.createElement('select');sel.id='subset-switch-'+(gi+1);
secs.forEach(function(s){var o=document.createElement('option');
o.value=s.getAttribute('data-subset');o.textContent=s.getAttribute('data-label');
sel.appendChild(o);});
var p=document.createElement('p'),l=document.createElement('label');p.className='switch';
l.appendChild(document.createTextNode('Show'));l.appendChild(sel);p.appendChild(l);
p.appendChild(document.createTextNode(' (one at a time; every section was computed by'+
' rankwise, the JSON has them all)'));g.insertBefore(p,g.firstChild);
function show(v){var hit=false;secs.forEach(function(s){var on=s.getAttribute('data-subset')===v;
s.hidden=!on;hit=hit||on;});if(hit)sel.value=v;return hit;}
sel.addEventListener('change',function(){show(sel.value);});show(secs[0].getAttribute('data-subset'));
shows.push({secs:secs,show:show});});
var f=document.querySelector('input.table-filter');
function filter(v){var t=document.getElementById(f.getAttribute('data-table'));v=(v||'').toLowerCase();
f.value=v;Array.prototype.forEach.call(t.tBodies[0].rows,function(r){
r.hidden=!!v&&r.cells[1].textContent.toLowerCase().indexOf(v)<0;});}
if(f)f.addEventListener('input',function(){filter(f.value);});
function reveal(){var h=location.hash.slice(1);if(!h)return;
if(h.indexOf('=')<0){var el=document.getElementById(decodeURIComponent(h));if(!el)return;
shows.forEach(function(x){x.secs.forEach(function(s){if(s.contains(el))x.show(s.getAttribute(
'data-subset'));});});el.scrollIntoView();return;}
var q=new URLSearchParams(h);if(q.get('subset'))shows.forEach(function(x){x.show(q.get('subset'));});
if(q.get('filter')&&f)filter(q.get('filter'));var s=q.get('sort');if(s){var a=s.split(':'),
t=a.length>2?document.getElementById(a[0]):document.getElementById('full_ranking');
if(a.length>2)a=a.slice(1);if(t)sort(t,parseInt(a[0],10),a[1]==='desc');}}
window.addEventListener('hashchange',reveal);reveal();})();"""
