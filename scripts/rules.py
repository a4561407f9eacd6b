#!/usr/bin/env python3
"""Regenerate docs/rules.md: one line per rule id of the checklist, with where code and tests cite it.

Usage: python3 scripts/rules.py [CHECKLIST]   (default ../shared/spec/checklist.md)

The one-line summaries are the checklist's own titles (for AMB-n, its recommendation: the decision
dcimon follows). The file is regenerated whole; run it after adding or removing a citation.
"""
import os, re, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
checklist = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, '..', 'shared', 'spec', 'checklist.md')
text = open(checklist, encoding='utf-8').read()

# A rule's bold heading may run onto the next lines (DCI4-TYPE-3's does): join them first, so no
# rule is missed for its length.
lines = []
for line in text.splitlines():
    if lines and lines[-1].startswith('- **') and lines[-1].count('**') == 1:
        lines[-1] += ' ' + line.strip()
    else:
        lines.append(line)

rules = []  # (id, priority, summary, section)
section = ''
for line in lines:
    m = re.match(r'^##+ (.*)', line)
    if m:
        section = m.group(1).strip()
        continue
    m = re.match(r'^- \*\*([A-Z0-9]+(?:-[A-Z0-9]+)*-\d+)(?: \((P\d|N/A)\))?(?: · (.*?))?\*\*(.*)', line)
    if m:
        rid, pri, title, rest = m.group(1), m.group(2) or 'N/A', m.group(3), m.group(4)
        if title is None:
            title = rest.strip(' —-')
            pri = 'N/A'
        title = re.sub(r'\s+—\s+(?:DCI4? |PCP[DF]? |SPMI )?L\d.*$', '', title).strip()
        rules.append((rid, pri, title, section))
        continue
    if line.startswith('| AMB-'):
        cols = [c.strip().replace('\\|', '|') for c in re.split(r'(?<!\\)\|', line)[1:-1]]
        if len(cols) >= 4:
            rules.append((cols[0], 'AMB', cols[3], 'Ambiguities decided'))
        continue

# Where each id is cited: test files and non-test files, by counting word-bounded occurrences.
files = subprocess.run(['git', 'ls-files', '*.go'], cwd=root, capture_output=True, text=True).stdout.split()
cites = {}
pat = re.compile(r'\b((?:DCI4|DCI|PCPD|PCPF|SPMI|X|AMB)(?:-[A-Z]+)?-\d+)\b')
for f in files:
    for rid in set(pat.findall(open(os.path.join(root, f), encoding='utf-8', errors='replace').read())):
        cites.setdefault(rid, set()).add(f)

# Rules dcimon decides on rather than checks by a test: `ID: reason`, one a line, in
# docs/rule-decisions.txt (a reader without the checklist understands the reason).
decisions = {}
dpath = os.path.join(root, 'docs', 'rule-decisions.txt')
if os.path.exists(dpath):
    for line in open(dpath, encoding='utf-8'):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        rid, _, why = line.partition(':')
        decisions[rid.strip()] = why.strip()

def cell(s):
    return s.replace('|', '\\|').replace('\n', ' ')

out = ['# Rules', '',
       'Every rule id cited in dcimon\'s code and tests (`DCI-INV-4`, `SPMI-HOT-7`, `X-5`, `AMB-19`), one line',
       'each, so a citation is understandable from the repository alone. The full rule, its acceptance test and',
       'its source lines are in the project\'s checklist (`shared/spec/checklist.md` beside the repository);',
       'this table is generated from it by `python3 scripts/rules.py`, which also refreshes the last column.',
       '',
       'Prefixes: `DCI-` The Open Group UMA Data Capture Interface; `DCI4-` RISC OS DCI4 statistics',
       '(suppliers and gatherers); `PCPD-` PCP metric descriptors (`pmLookupDesc`); `PCPF-` PCP fetch results',
       '(`pmFetch`); `SPMI-` AIX SPMI (contexts, statsets, hotsets); `X-` rules that join the four; `AMB-`',
       'the checklist\'s decisions where a source is ambiguous (the decision is the line). Priority: P1 must',
       'have, P2 should have, P3 polish, N/A recorded for completeness.',
       '',
       'Status: **tested** — a test cites the rule and checks it through the product\'s own path (the',
       'monitor, `list`, `describe`, `get`, `hot`) or the function that path calls; **decided** — dcimon',
       'decides against the rule or reads it otherwise, for the reason given (from `docs/rule-decisions.txt`);',
       '**open** — neither yet. N/A rules are recorded for completeness; P3 rules are polish.',
       '']
sec = None
counts, opened = {}, []
for rid, pri, title, s in rules:
    if s != sec:
        out += ['', '## ' + s, '', '| id | pri | rule | status | cited in tests | cited in code |', '|---|---|---|---|---|---|']
        sec = s
    fs = sorted(cites.get(rid, ()))
    tests = ', '.join('`%s`' % f for f in fs if f.endswith('_test.go')) or '—'
    code = ', '.join('`%s`' % f for f in fs if not f.endswith('_test.go')) or '—'
    if rid in decisions:
        status = 'decided: ' + decisions[rid]
    elif tests != '—':
        status = 'tested'
    elif pri in ('N/A', 'AMB'):
        status = '—'
    elif pri == 'P3':
        status = 'P3, not done'
    else:
        status = '**open**'
    counts[status.split(':')[0]] = counts.get(status.split(':')[0], 0) + 1
    if status == '**open**':
        opened.append(rid)
    out.append('| %s | %s | %s | %s | %s | %s |' % (rid, pri, cell(title), cell(status), tests, code))
known = {r[0] for r in rules}
unknown = sorted(set(cites) - known)
if unknown:
    out += ['', '## Cited but not in the checklist', '',
            'These look like rule ids in the code but name no rule; each is a typo or a local label to fix:', '']
    out += ['- `%s` in %s' % (u, ', '.join('`%s`' % f for f in sorted(cites[u]))) for u in unknown]
open(os.path.join(root, 'docs', 'rules.md'), 'w', encoding='utf-8').write('\n'.join(out) + '\n')
print('%d rules, %d cited, %d cited ids unknown; status %s' % (len(rules), sum(1 for r in rules if r[0] in cites), len(unknown),
      ', '.join('%s %d' % kv for kv in sorted(counts.items()))))
if opened:
    print('open P1/P2: ' + ' '.join(opened))
