package org.dxtext;

/** A privatised text or word with the report of the call. */
public final class DxText {
  private final String text;
  private final DxReport report;

  DxText(String text, DxReport report) {
    this.text = text;
    this.report = report;
  }

  public String getText() {
    return text;
  }

  public DxReport getReport() {
    return report;
  }

  @Override
  public String toString() {
    return text;
  }
}
