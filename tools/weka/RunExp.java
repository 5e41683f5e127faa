import java.beans.PropertyDescriptor;
import java.io.File;
import javax.swing.DefaultListModel;
import weka.classifiers.Classifier;
import weka.experiment.*;

/** A Weka experiment as the Experimenter runs one: several classifiers (a property
 *  iteration) over several data sets, runs x k-fold cross-validation, one ARFF result file.
 *  args: folds runs out.arff dataset.arff... */
public class RunExp {
  public static void main(String[] args) throws Exception {
    int folds = Integer.parseInt(args[0]);
    int runs = Integer.parseInt(args[1]);
    Experiment exp = new Experiment();
    exp.setPropertyArray(new Classifier[0]);
    exp.setRunLower(1);
    exp.setRunUpper(runs);
    CrossValidationResultProducer cv = new CrossValidationResultProducer();
    cv.setNumFolds(folds);
    ClassifierSplitEvaluator se = new ClassifierSplitEvaluator();
    se.setClassifier(new weka.classifiers.rules.ZeroR());
    cv.setSplitEvaluator(se);
    PropertyNode[] path = new PropertyNode[2];
    path[0] = new PropertyNode(se, new PropertyDescriptor("splitEvaluator",
        CrossValidationResultProducer.class), CrossValidationResultProducer.class);
    path[1] = new PropertyNode(se.getClassifier(), new PropertyDescriptor("classifier",
        se.getClass()), se.getClass());
    exp.setResultProducer(cv);
    exp.setPropertyPath(path);
    exp.setUsePropertyIterator(true);
    exp.setPropertyArray(new Classifier[] {new weka.classifiers.rules.ZeroR(),
        new weka.classifiers.trees.J48(), new weka.classifiers.bayes.NaiveBayes()});
    DefaultListModel model = new DefaultListModel();
    for (int i = 3; i < args.length; i++) model.addElement(new File(args[i]));
    exp.setDatasets(model);
    InstancesResultListener irl = new InstancesResultListener();
    irl.setOutputFile(new File(args[2]));
    exp.setResultListener(irl);
    exp.initialize();
    exp.runExperiment();
    exp.postProcess();
  }
}
