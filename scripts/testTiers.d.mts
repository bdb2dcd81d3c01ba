export declare const WORKSPACE_TEST_FOLDERS: string[];
export declare const SERVER_TEST_FILES: string[];
export declare const MODULE_REPLACING_TEST_FILES: string[];
export declare const CLUSTER_TEST_FILES: string[];
