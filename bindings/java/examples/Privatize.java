// SPDX-License-Identifier: Apache-2.0
import org.dxtext.DxException;
import org.dxtext.DxModel;
import org.dxtext.DxOptions;
import org.dxtext.DxPrivatizer;
import org.dxtext.DxStatus;
import org.dxtext.DxText;

/** Privatise a sentence with the default model and print the guarantee. */
public class Privatize {
  public static void main(String[] args) {
    String text = args.length > 0 ? args[0] : "The president spoke to the nation about the war.";
    try (DxModel model = DxModel.openDefault(); // share it between threads
        DxPrivatizer privatizer = new DxPrivatizer(model)) { // one per thread
      DxText result = privatizer.privatizeTextWithRecord(text, DxOptions.epsilon(20));
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
