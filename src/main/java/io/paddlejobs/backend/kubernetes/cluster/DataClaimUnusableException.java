package io.paddlejobs.backend.kubernetes.cluster;

import io.paddlejobs.problem.ProblemType;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * The namespace's data claim is missing or cannot be shared by pods on several nodes: 409, as
 * the namespace is not ready for jobs; what its operator must provide is in the detail.
 */
public class DataClaimUnusableException extends ErrorResponseException {

    private DataClaimUnusableException(String detail) {
        super(HttpStatus.CONFLICT, ProblemDetail.forStatus(HttpStatus.CONFLICT), null);
        getBody().setType(ProblemType.DATA_CLAIM_UNUSABLE.uri());
        setTitle("Namespace has no usable data claim");
        setDetail(detail + " Nothing was created.");
    }

    static DataClaimUnusableException missing(String namespace, String claim) {
        return new DataClaimUnusableException("Namespace '" + namespace + "' has no PersistentVolumeClaim '" + claim
                + "', which every replica mounts at /data. Ask its operator to create one with accessModes"
                + " [ReadWriteMany] (NFS, CephFS, EFS, Filestore, Azure Files).");
    }

    static DataClaimUnusableException notShared(String namespace, String claim, List<String> modes) {
        return new DataClaimUnusableException("The PersistentVolumeClaim '" + claim + "' of namespace '" + namespace
                + "' has access modes " + modes + ": it attaches to one node only, so replicas on other nodes would"
                + " wait forever to mount it. Ask the namespace's operator for a ReadWriteMany (or ReadOnlyMany) claim.");
    }
}
