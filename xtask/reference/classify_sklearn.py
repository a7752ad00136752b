#!/usr/bin/env python3
"""Optional reference for docs/classify.md (not part of CI).

Runs scikit-learn's MultinomialNB and LinearSVC (one-vs-rest, flat over the
leaves) on the exact train/test vectors our classifier_accuracy example
exports, so the two implementations are compared on the same split:

    cargo run --release -p focus-crawl --example classifier_accuracy -- 1 /tmp/cls
    python3 -m pip install scikit-learn
    python3 xtask/reference/classify_sklearn.py /tmp/cls
"""
import sys

from sklearn.datasets import load_svmlight_files
from sklearn.feature_extraction.text import TfidfTransformer
from sklearn.metrics import accuracy_score, f1_score
from sklearn.naive_bayes import MultinomialNB
from sklearn.svm import LinearSVC


def main(d: str) -> None:
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


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/cls")
