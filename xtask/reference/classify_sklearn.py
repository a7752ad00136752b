#!/usr/bin/env python3
"""Optional reference for docs/classify.md (not part of CI).

Runs scikit-learn's MultinomialNB and LinearSVC (one-vs-rest, flat over the
leaves) on the exact train/test vectors our Rust evaluations export, so the
two implementations are compared on the same split and the same features.

Websim (single-label, `classifier_accuracy` example):

    cargo run --release -p focus-crawl --example classifier_accuracy -- 1 /tmp/cls
    python3 -m pip install scikit-learn
    python3 xtask/reference/classify_sklearn.py /tmp/cls

A labelled corpus such as Wikispeedia (multi-label; the export also writes
`train_labels.tsv`, `test_labels.tsv` and `leaves.tsv`, which switch this
script to the corpus mode):

    cargo run --release -p focus-experiments --example classify_corpus -- \
        ../shared/corpora/wikispeedia /tmp/cls-out 1 /tmp/cls-wiki
    python3 xtask/reference/classify_sklearn.py /tmp/cls-wiki

Corpus mode scores exactly as `focus_eval::multilabel_scores`: a prediction
is right when it is one of the page's leaf labels; per class TP = predicted
and labelled, FP = predicted and not labelled, FN = labelled and the page's
prediction wrong; macro-F1 over the classes in the truth or predictions.
Training rows are the training pages with a leaf label (the row's label is
the page's first leaf label); the test rows are the held-out pages with a
leaf label. Relevance (ROC AUC, Brier) for the good topics is scored over
every held-out page, from (a) the flat MultinomialNB posterior summed over
the topic's leaves (the analogue of the hierarchical NB's R) and (b) one
binary LogisticRegression(C=1) per topic on sublinear TF-IDF, trained on all
training pages with the topic's truth, and (c) the same with balanced class
weights, as the reference crawler (crawl_sklearn.py) trains its model.
Where the export has `test_links.tsv`, the same scores' neighbour AUC
follows: among the held-out pages outside each topic, how well the score
ranks those that link to a page of the topic above those that do not (the
table of the same name in docs/results/wikispeedia-classify.md).
"""
import os
import sys

import numpy as np
from sklearn.datasets import load_svmlight_files
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, brier_score_loss, f1_score, roc_auc_score
from sklearn.naive_bayes import MultinomialNB
from sklearn.svm import LinearSVC


def websim(d: str) -> None:
    xtr, ytr, xte, yte = load_svmlight_files([f"{d}/train.svm", f"{d}/test.svm"])
    print(f"{xtr.shape[0]} training and {xte.shape[0]} test pages\n")
    print("| reference (scikit-learn) | accuracy | macro-F1 |")
    print("|---|---|---|")
    nb = MultinomialNB(alpha=1.0).fit(xtr, ytr)
    p = nb.predict(xte)
    print(f"| MultinomialNB (flat, alpha=1) | {accuracy_score(yte, p):.3f} | "
          f"{f1_score(yte, p, average='macro'):.3f} |")
    tf = TfidfTransformer(sublinear_tf=True).fit(xtr)
    svm = LinearSVC(C=1.0).fit(tf.transform(xtr), ytr)
    p = svm.predict(tf.transform(xte))
    print(f"| LinearSVC (flat one-vs-rest, C=1, sublinear TF-IDF) | "
          f"{accuracy_score(yte, p):.3f} | {f1_score(yte, p, average='macro'):.3f} |")


def read_labels(path):
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    cats = rows[0][1:]
    leaf = [set(int(x) for x in r[0].split(",") if x) for r in rows[1:]]
    rel = np.array([[c == "1" for c in r[1:]] for r in rows[1:]], dtype=bool)
    return cats, leaf, rel


def multilabel_scores(labels, preds):
    """Accuracy and macro-F1 with the rule of focus_eval::multilabel_scores."""
    tp, fp, fn = {}, {}, {}
    correct = 0
    for ls, p in zip(labels, preds):
        for c in ls:
            tp.setdefault(c, 0)
        if p in ls:
            correct += 1
            tp[p] = tp.get(p, 0) + 1
        else:
            fp[p] = fp.get(p, 0) + 1
            tp.setdefault(p, 0)
            for c in ls:
                fn[c] = fn.get(c, 0) + 1
    f1 = [2 * tp[c] / (2 * tp[c] + fp.get(c, 0) + fn.get(c, 0)) if tp[c] else 0.0
          for c in tp]
    return correct / len(labels), sum(f1) / len(f1)


def corpus(d: str) -> None:
    xtr, ytr, xte, yte = load_svmlight_files([f"{d}/train.svm", f"{d}/test.svm"])
    cats, _, rel_tr = read_labels(f"{d}/train_labels.tsv")
    _, leaf_te, rel_te = read_labels(f"{d}/test_labels.tsv")
    with open(f"{d}/leaves.tsv", encoding="utf-8") as f:
        leaves = [line.rstrip("\n").split("\t")[1] for line in f]
    tr = ytr >= 0
    te = np.array([bool(ls) for ls in leaf_te])
    labels_te = [ls for ls in leaf_te if ls]
    print(f"{xtr.shape[1]} feature columns; {tr.sum()} training pages with a leaf label "
          f"(of {xtr.shape[0]}), {te.sum()} held-out pages with a leaf label "
          f"(of {xte.shape[0]})\n")
    print("| reference (scikit-learn) | leaf accuracy | macro-F1 |")
    print("|---|---|---|")

    def row(name, preds):
        acc, f1 = multilabel_scores(labels_te, [int(p) for p in preds])
        print(f"| {name} | {acc:.3f} | {f1:.3f} |")

    nb = MultinomialNB(alpha=1.0).fit(xtr[tr], ytr[tr])
    row("MultinomialNB (flat, alpha=1, all 2^20 hashed columns)", nb.predict(xte[te]))
    seen = np.flatnonzero(np.asarray(xtr.sum(axis=0)).ravel() > 0)
    nb_seen = MultinomialNB(alpha=1.0).fit(xtr[tr][:, seen], ytr[tr])
    row(f"MultinomialNB (flat, alpha=1, the {len(seen)} columns seen in training)",
        nb_seen.predict(xte[te][:, seen]))
    tf = TfidfTransformer(sublinear_tf=True).fit(xtr)
    xtr_w, xte_w = tf.transform(xtr), tf.transform(xte)
    svm = LinearSVC(C=1.0).fit(xtr_w[tr], ytr[tr])
    row("LinearSVC (flat one-vs-rest, C=1, sublinear TF-IDF)", svm.predict(xte_w[te]))

    print("\nRelevance for each good topic over all held-out pages: ROC AUC / Brier\n")
    names = ["MultinomialNB Σ posterior (all columns)",
             "MultinomialNB Σ posterior (seen columns)",
             "LogisticRegression (C=1, sublinear TF-IDF)",
             "LogisticRegression (C=1, sublinear TF-IDF, balanced)"]
    print("| good topic | relevant pages | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    p_nb = nb.predict_proba(xte)
    p_nb_seen = nb_seen.predict_proba(xte[:, seen])
    sums = [[] for _ in names]
    per_topic = []
    for j, cat in enumerate(cats):
        under = [i for i, c in enumerate(nb.classes_)
                 if leaves[int(c)] == cat or leaves[int(c)].startswith(cat + "/")]
        y = rel_te[:, j]
        lr = LogisticRegression(C=1.0, max_iter=1000).fit(xtr_w, rel_tr[:, j])
        # Balanced class weights, as the reference crawler's own model
        # (crawl_sklearn.py) is trained.
        lr_bal = LogisticRegression(C=1.0, max_iter=1000, class_weight="balanced").fit(
            xtr_w, rel_tr[:, j])
        scores = [p_nb[:, under].sum(axis=1), p_nb_seen[:, under].sum(axis=1),
                  lr.predict_proba(xte_w)[:, 1], lr_bal.predict_proba(xte_w)[:, 1]]
        per_topic.append(scores)
        cells = []
        for k, r in enumerate(scores):
            r = np.clip(r, 0.0, 1.0)
            auc, brier = roc_auc_score(y, r), brier_score_loss(y, r)
            sums[k].append((auc, brier))
            cells.append(f"{auc:.3f} / {brier:.3f}")
        print(f"| {cat} | {y.sum()} | " + " | ".join(cells) + " |")
    print("| **mean** | | " + " | ".join(
        f"**{np.mean([a for a, _ in s]):.3f}** / **{np.mean([b for _, b in s]):.3f}**"
        for s in sums) + " |")
    if os.path.exists(f"{d}/test_links.tsv"):
        neighbour_table(d, cats, rel_te, per_topic, names)


def neighbour_table(d, cats, rel_te, per_topic, names):
    """The neighbour AUC of wikispeedia-classify.md: among the held-out
    pages outside each topic, how well each score ranks those that link to
    a page of the topic (test_links.tsv) above those that do not."""
    with open(f"{d}/test_links.tsv", encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    if rows[0] != cats:
        sys.exit("test_links.tsv names other topics than test_labels.tsv: export again")
    links = np.array([[c == "1" for c in r] for r in rows[1:]], dtype=bool)
    print("\nAmong the held-out pages outside each topic, ROC AUC of the score "
          "for linking to a page of the topic\n")
    print("| good topic | off-topic pages linking to it / not | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    sums = [[] for _ in names]
    for j, cat in enumerate(cats):
        off = ~rel_te[:, j]
        leads = links[off, j]
        cells = []
        for k, r in enumerate(per_topic[j]):
            if leads.all() or not leads.any():
                cells.append("—")
                continue
            auc = roc_auc_score(leads, np.clip(r[off], 0.0, 1.0))
            sums[k].append(auc)
            cells.append(f"{auc:.3f}")
        print(f"| {cat} | {leads.sum()} / {(~leads).sum()} | " + " | ".join(cells) + " |")
    print("| **mean** | | " + " | ".join(f"**{np.mean(s):.3f}**" for s in sums) + " |")


def main(d: str) -> None:
    if os.path.exists(f"{d}/test_labels.tsv"):
        corpus(d)
    else:
        websim(d)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/cls")
