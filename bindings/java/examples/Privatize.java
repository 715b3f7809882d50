// SPDX-License-Identifier: Apache-2.0
import org.dxtext.DxException;
import org.dxtext.DxModel;
import org.dxtext.DxOptions;
import org.dxtext.DxPreset;
import org.dxtext.DxPrivatizer;
import org.dxtext.DxStatus;
import org.dxtext.DxText;

/** Privatise a sentence with the default model and print the guarantee. */
public class Privatize {
  public static void main(String[] args) {
    String text = args.length > 0 ? args[0] : "The president spoke to the nation about the war.";
    try (DxModel model = DxModel.openDefault(); // share it between threads
        DxPrivatizer privatizer = new DxPrivatizer(model)) { // one per thread
      // A preset sets the mechanism, epsilon, release shape, output vocabulary
      // and policies at once: READABLE for text a person will read.
      DxText result = privatizer.privatizeTextWithRecord(text, DxOptions.of(DxPreset.READABLE));
      System.out.println(result.getText());
      System.out.println(result.getRecord().toJson()); // the guarantee: safe to send
      try {
        privatizer.privatizeText(text, DxOptions.epsilon(-1));
      } catch (DxException e) {
        if (e.getStatus() != DxStatus.INVALID_EPSILON) {
          throw e;
        }
        System.err.println("as expected: " + e.getMessage());
      }
    }
  }
}
