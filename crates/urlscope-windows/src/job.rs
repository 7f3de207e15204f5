//! A process and everything it starts, ended together: a job object with
//! `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`, which the process joins before it runs a single
//! instruction (it is started suspended), so that no process it starts can escape the job.

use std::ffi::c_void;
use std::io;
use std::os::windows::io::AsRawHandle;
use std::os::windows::process::CommandExt;
use std::process::{Child, Command};

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, Thread32First, Thread32Next, TH32CS_SNAPTHREAD, THREADENTRY32,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectBasicProcessIdList,
    JobObjectExtendedLimitInformation, QueryInformationJobObject, SetInformationJobObject,
    TerminateJobObject, JOBOBJECT_BASIC_PROCESS_ID_LIST, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};
use windows_sys::Win32::System::Threading::{
    OpenThread, ResumeThread, CREATE_SUSPENDED, THREAD_SUSPEND_RESUME,
};

/// A job object whose processes all end when it is closed: when the `Job` is dropped, or when
/// the process holding it ends, however it ends.
#[derive(Debug)]
pub struct Job {
    handle: HANDLE,
}

// SAFETY: a job object's handle is a kernel handle, usable from any thread; the `Job` owns it
// and closes it once, on drop.
unsafe impl Send for Job {}
// SAFETY: every use through `&Job` is a system call that the kernel serialises.
unsafe impl Sync for Job {}

impl Job {
    /// A new anonymous job object that ends its processes when it is closed. Its handle is not
    /// inherited by child processes, so the job's life is this process's to decide.
    pub fn new() -> io::Result<Job> {
        // SAFETY: no security attributes (a handle that is not inherited) and no name; the
        // returned handle, when not null, is ours to close.
        let handle = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
        if handle.is_null() {
            return Err(io::Error::last_os_error());
        }
        let job = Job { handle };
        let mut limits = JOBOBJECT_EXTENDED_LIMIT_INFORMATION::default();
        limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        // SAFETY: the information class names the structure passed, with its size; the system
        // only reads it.
        let set = unsafe {
            SetInformationJobObject(
                job.handle,
                JobObjectExtendedLimitInformation,
                std::ptr::from_ref(&limits).cast::<c_void>(),
                size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
            )
        };
        if set == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(job)
    }

    /// Puts a running process in the job (with whatever it starts from then on).
    pub fn assign(&self, child: &Child) -> io::Result<()> {
        // SAFETY: both handles are open: the job's is ours, the child's is std's for as long as
        // `child` is borrowed.
        let assigned = unsafe { AssignProcessToJobObject(self.handle, child.as_raw_handle()) };
        if assigned == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Ends every process in the job now, with exit code 1.
    pub fn terminate(&self) -> io::Result<()> {
        // SAFETY: the job's handle is open until drop.
        if unsafe { TerminateJobObject(self.handle, 1) } == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// The ids of the processes in the job now.
    pub fn process_ids(&self) -> io::Result<Vec<u32>> {
        // The structure is a header of two counts followed by as many ids as there is room
        // for: asked again with more room while the job holds more than were returned.
        let header = std::mem::offset_of!(JOBOBJECT_BASIC_PROCESS_ID_LIST, ProcessIdList)
            / size_of::<usize>();
        let mut room = 16;
        loop {
            let mut buffer = vec![0usize; header + room];
            // SAFETY: `buffer` is aligned for the structure (usize alignment, its largest
            // field's) and the length passed is its size in bytes; the system writes within it.
            let queried = unsafe {
                QueryInformationJobObject(
                    self.handle,
                    JobObjectBasicProcessIdList,
                    buffer.as_mut_ptr().cast::<c_void>(),
                    (buffer.len() * size_of::<usize>()) as u32,
                    std::ptr::null_mut(),
                )
            };
            // SAFETY: the buffer starts with the structure's header, written by the system
            // (or still zero when the call failed).
            let list = unsafe { &*buffer.as_ptr().cast::<JOBOBJECT_BASIC_PROCESS_ID_LIST>() };
            let assigned = list.NumberOfAssignedProcesses as usize;
            let listed = list.NumberOfProcessIdsInList as usize;
            if queried != 0 && listed >= assigned {
                return Ok(buffer[header..header + listed]
                    .iter()
                    .map(|&id| id as u32)
                    .collect());
            }
            if assigned <= room && queried == 0 {
                return Err(io::Error::last_os_error());
            }
            room = assigned.max(room) * 2;
        }
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        // SAFETY: the handle is open and owned here; closing the last handle of a job with
        // KILL_ON_JOB_CLOSE ends its processes, which is the point.
        unsafe { CloseHandle(self.handle) };
    }
}

/// Starts `command` in a job of its own, so that the process and everything it starts end
/// together ([`Job::terminate`], or dropping the job). The process is started suspended and
/// only runs once it is in the job. The command's creation flags are replaced.
///
/// When no job can be had (the system refused to create one, or to nest it in a job urlscope
/// itself runs in), the process runs all the same and `None` is returned: stopping it then
/// stops that process alone.
pub fn spawn_in_job(command: &mut Command) -> io::Result<(Child, Option<Job>)> {
    let Ok(job) = Job::new() else {
        return Ok((command.spawn()?, None));
    };
    command.creation_flags(CREATE_SUSPENDED);
    let mut child = command.spawn()?;
    let job = job.assign(&child).ok().map(|()| job);
    if let Err(e) = resume(child.id()) {
        // A process that cannot be resumed would never run: end it rather than leave it.
        let _ = child.kill();
        let _ = child.wait();
        return Err(e);
    }
    Ok((child, job))
}

/// Resumes the threads of a process started suspended (one: its first).
fn resume(pid: u32) -> io::Result<()> {
    // SAFETY: a snapshot of the system's threads; the handle is closed below.
    let snapshot = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0) };
    if snapshot == INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    let mut entry = THREADENTRY32 {
        dwSize: size_of::<THREADENTRY32>() as u32,
        ..THREADENTRY32::default()
    };
    let mut resumed = 0;
    let mut failure = None;
    // SAFETY: the snapshot is open and `entry` has its size set, as the calls require.
    let mut more = unsafe { Thread32First(snapshot, &mut entry) } != 0;
    while more {
        if entry.th32OwnerProcessID == pid {
            // SAFETY: opening a thread by id; the handle, when not null, is closed below.
            let thread = unsafe { OpenThread(THREAD_SUSPEND_RESUME, 0, entry.th32ThreadID) };
            if thread.is_null() {
                failure = Some(io::Error::last_os_error());
            } else {
                // SAFETY: the thread's handle is open with THREAD_SUSPEND_RESUME.
                if unsafe { ResumeThread(thread) } == u32::MAX {
                    failure = Some(io::Error::last_os_error());
                } else {
                    resumed += 1;
                }
                // SAFETY: opened above, closed once.
                unsafe { CloseHandle(thread) };
            }
        }
        // SAFETY: as for Thread32First.
        more = unsafe { Thread32Next(snapshot, &mut entry) } != 0;
    }
    // SAFETY: opened above, closed once.
    unsafe { CloseHandle(snapshot) };
    match (resumed, failure) {
        (0, Some(e)) => Err(e),
        (0, None) => Err(io::Error::other(format!(
            "process {pid} has no thread to resume"
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    /// Waits up to a minute (a loaded machine, Wine) for `done`.
    fn eventually(mut done: impl FnMut() -> bool) -> bool {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if done() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        done()
    }

    #[test]
    fn a_process_started_in_a_job_runs_to_its_end() {
        let (mut child, job) =
            spawn_in_job(Command::new("cmd.exe").args(["/d", "/c", "exit 7"])).expect("spawned");
        assert!(job.is_some(), "no job for the process");
        assert_eq!(child.wait().expect("waited").code(), Some(7));
    }

    #[test]
    fn a_process_tree_ends_with_its_job() {
        // cmd starts a second cmd, which waits for a key on the pipe that is never written.
        let mut command = Command::new("cmd.exe");
        command
            .args(["/d", "/c", "cmd.exe /d /c pause"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null());
        let (mut child, job) = spawn_in_job(&mut command).expect("spawned");
        let job = job.expect("a job");
        assert!(
            eventually(|| job.process_ids().is_ok_and(|ids| ids.len() == 2)),
            "the job should hold cmd and the cmd it started: {:?}",
            job.process_ids()
        );
        assert!(job.process_ids().expect("listed").contains(&child.id()));
        job.terminate().expect("terminated");
        assert_eq!(child.wait().expect("waited").code(), Some(1));
        assert!(
            eventually(|| job.process_ids().is_ok_and(|ids| ids.is_empty())),
            "processes left in the job: {:?}",
            job.process_ids()
        );
    }

    #[test]
    fn closing_the_job_ends_its_processes() {
        let mut command = Command::new("cmd.exe");
        command
            .args(["/d", "/c", "pause"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null());
        let (mut child, job) = spawn_in_job(&mut command).expect("spawned");
        assert!(job.is_some(), "no job for the process");
        drop(job);
        let ended = eventually(|| child.try_wait().is_ok_and(|status| status.is_some()));
        if !ended {
            let _ = child.kill();
        }
        assert!(ended, "cmd outlived its job's handle");
    }
}
